package io.freshet.stack.demoweb;

import java.time.Instant;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ground truth as JSON: a summary at {@code /_truth}, every version at {@code
 * /_truth/versions}, every source at {@code /_truth/sources}.
 */
final class TruthJson {

  private TruthJson() {}

  static String summary(JsonMapper json, GroundTruth truth, ScaledClock clock) {
    GroundTruth.Summary s = truth.summary();
    ObjectNode root = json.createObjectNode();
    root.put("wall_now", clock.wallNow().toString());
    root.put("trace_now", Instant.ofEpochSecond(clock.traceNow()).toString());
    root.put("trace_serving_since", Instant.ofEpochSecond(truth.serveStartTrace()).toString());
    root.put("scale", clock.scale());
    root.put("sources", s.sources());
    root.put("deliverable_sources", s.deliverableSources());
    root.put("published_versions", s.publishedVersions());
    root.put("served_versions", s.servedVersions());
    root.put("served_beyond_calendar_reach", s.servedBeyondReach());
    return json.writeValueAsString(root) + "\n";
  }

  /** One NDJSON line a source: its id, kind, host behaviour and the hub it announces (or null). */
  static String sources(JsonMapper json, java.util.Collection<DemoSource> sources) {
    StringBuilder b = new StringBuilder();
    for (DemoSource s : sources) {
      ObjectNode line = json.createObjectNode();
      line.put("source_id", s.id());
      line.put("kind", s.kind().name().toLowerCase());
      line.put("path", s.path());
      line.put("behaviour", s.behaviour().name().toLowerCase());
      putHub(line, s);
      b.append(json.writeValueAsString(line)).append('\n');
    }
    return b.toString();
  }

  private static void putHub(ObjectNode line, DemoSource s) {
    DemoHub.Variant hub = DemoHub.variantOf(s);
    if (hub != null) {
      line.put("hub", hub.name().toLowerCase());
    } else {
      line.putNull("hub");
    }
  }

  static String versions(JsonMapper json, GroundTruth truth, ScaledClock clock) {
    StringBuilder b = new StringBuilder();
    for (GroundTruth.Entry e : truth.entries()) {
      ObjectNode line = json.createObjectNode();
      line.put("source_id", e.source().id());
      line.put("kind", e.source().kind().name().toLowerCase());
      line.put("behaviour", e.source().behaviour().name().toLowerCase());
      putHub(line, e.source());
      line.put("item_id", e.version().itemId());
      line.put("version", e.version().version());
      line.put("published_at", clock.toWall(e.version().publishedTrace()).toString());
      line.put("published_trace", Instant.ofEpochSecond(e.version().publishedTrace()).toString());
      if (e.servedAt() != null) {
        line.put("served_at", e.servedAt().toString());
      } else {
        line.putNull("served_at");
      }
      b.append(json.writeValueAsString(line)).append('\n');
    }
    return b.toString();
  }
}
