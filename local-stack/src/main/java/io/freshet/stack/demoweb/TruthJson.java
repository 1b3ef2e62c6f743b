package io.freshet.stack.demoweb;

import java.time.Instant;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The ground truth as JSON: a summary at {@code /_truth}, every version at {@code
 * /_truth/versions}.
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
    return json.writeValueAsString(root) + "\n";
  }

  static String versions(JsonMapper json, GroundTruth truth, ScaledClock clock) {
    StringBuilder b = new StringBuilder();
    for (GroundTruth.Entry e : truth.entries()) {
      ObjectNode line = json.createObjectNode();
      line.put("source_id", e.source().id());
      line.put("kind", e.source().kind().name().toLowerCase());
      line.put("behaviour", e.source().behaviour().name().toLowerCase());
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
