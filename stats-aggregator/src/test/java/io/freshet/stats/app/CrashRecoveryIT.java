package io.freshet.stats.app;

import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.published;
import static io.freshet.stats.testing.Outcomes.seen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.SignalType;
import io.freshet.stats.testing.StatsApp;
import io.freshet.stats.testing.Topics;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * 10,000 outcomes over 40 sources (with failures, 304s, redelivered records and items re-marked
 * new): an instance killed with SIGKILL mid-stream and restarted, and two instances sharing the
 * partitions, end with exactly the stats of one uninterrupted instance.
 */
@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
class CrashRecoveryIT {

  static final Instant T = Instant.parse("2026-10-01T00:00:00Z");
  static final int SOURCES = 40;
  static final int RECORDS = 10_000;
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;

  @Test
  void aKilledAndRestartedInstanceAndTwoInstancesSharingTheWorkEndWithTheUninterruptedStats(
      KafkaFixture kafka) throws Exception {
    var topics = new Topics(kafka);
    String run = UUID.randomUUID().toString().substring(0, 8);
    List<String> ids = new ArrayList<>();
    for (int s = 0; s < SOURCES; s++) {
      ids.add("crash-" + run + "-" + s);
    }
    List<FetchCompleted> outcomes = generate(ids);
    assertThat(outcomes).hasSize(RECORDS);
    Map<String, Instant> lastAt = new LinkedHashMap<>();
    outcomes.forEach(o -> lastAt.put(o.getSourceId(), o.getFinishedAt()));
    String query = "/stats?ids=" + String.join(",", ids);

    // The first half before any instance runs.
    topics.send(outcomes.subList(0, RECORDS / 2));

    // B: a child JVM, killed abruptly while the second half is still arriving.
    String appB = "it-crash-b-" + run;
    try (var child = StatsApp.startChild(appB, dir.resolve("b"), dir.resolve("child.log"))) {
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> tryGet(child, query).contains("\"source_id\""));
      topics.send(outcomes.subList(RECORDS / 2, RECORDS * 3 / 4));
      Map<String, JsonNode> atKill = byId(tryGet(child, query));
      child.kill();
      assertThat(complete(atKill, lastAt)).as("the kill came before the end").isFalse();
    }
    topics.send(outcomes.subList(RECORDS * 3 / 4, RECORDS));

    // A: one instance, uninterrupted, from the start.
    Map<String, JsonNode> expected;
    try (var a = StatsApp.start("it-crash-a-" + run, dir.resolve("a"))) {
      expected = awaitComplete(a, query, lastAt);
    }

    // B restarted on the state directory the kill left behind.
    try (var b = StatsApp.start(appB, dir.resolve("b"))) {
      assertThat(awaitComplete(b, query, lastAt)).isEqualTo(expected);
    }

    // C: two instances sharing the partitions; either answers for all sources.
    String appC = "it-crash-c-" + run;
    try (var c1 = StatsApp.start(appC, dir.resolve("c1"));
        var c2 = StatsApp.start(appC, dir.resolve("c2"))) {
      assertThat(awaitComplete(c1, query, lastAt)).isEqualTo(expected);
      assertThat(awaitComplete(c2, query, lastAt)).isEqualTo(expected);
      String local = "/internal/stats?ids=" + String.join(",", ids);
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                JsonNode owned1 = JSON.readTree(c1.get(local).body());
                JsonNode owned2 = JSON.readTree(c2.get(local).body());
                assertThat(owned1.isArray() && owned2.isArray()).as("both answer").isTrue();
                int own1 = owned1.size();
                int own2 = owned2.size();
                assertThat(own1).isPositive();
                assertThat(own2).isPositive();
                assertThat(own1 + own2).isEqualTo(SOURCES);
              });
    }
  }

  static List<FetchCompleted> generate(List<String> ids) {
    List<FetchCompleted> out = new ArrayList<>();
    for (int k = 0; out.size() < RECORDS; k++) {
      for (int s = 0; s < ids.size() && out.size() < RECORDS; s++) {
        String id = ids.get(s);
        Instant at = T.plus(Duration.ofHours(k)).plus(Duration.ofMinutes(s));
        FetchCompleted o;
        if (k % 17 == 5) {
          o = outcome(id, at).status(FetchStatus.failed).build();
        } else if (k % 11 == 3) {
          o = outcome(id, at).status(FetchStatus.not_modified).build();
        } else {
          List<ItemDigest> items = new ArrayList<>();
          ItemDigest fresh = published(id + "-" + k, ItemNovelty.added, at.minusSeconds(600));
          fresh.setSignalType(SignalType.values()[(k + s) % 4]);
          if (fresh.getSignalType() == SignalType.event) {
            fresh.setEventAt(at.plus(Duration.ofDays((k % 20) - 5)));
          }
          items.add(fresh);
          if (k % 7 == 0 && k > 0) { // a re-emitted request marks the previous item new again
            items.add(published(id + "-" + (k - 1), ItemNovelty.added, at.minusSeconds(4200)));
          }
          if (k > 1) {
            items.add(seen(id + "-" + (k - 2)));
          }
          o = outcome(id, at).items(items).build();
        }
        out.add(o);
        if (k % 13 == 4 && out.size() < RECORDS) {
          out.add(o); // redelivered record
        }
      }
    }
    return out;
  }

  static String tryGet(StatsApp app, String path) {
    try {
      var r = app.get(path);
      return r.statusCode() == 200 ? r.body() : "";
    } catch (RuntimeException notUpYet) {
      return "";
    }
  }

  static Map<String, JsonNode> byId(String body) {
    Map<String, JsonNode> m = new TreeMap<>();
    if (!body.isEmpty()) {
      JsonNode stats = JSON.readTree(body).get("stats");
      for (JsonNode n : stats == null ? JSON.createArrayNode() : stats) {
        m.put(n.get("source_id").asString(), n);
      }
    }
    return m;
  }

  static boolean complete(Map<String, JsonNode> stats, Map<String, Instant> lastAt) {
    if (stats.size() < lastAt.size()) {
      return false;
    }
    return lastAt.entrySet().stream()
        .allMatch(
            e ->
                Instant.parse(stats.get(e.getKey()).get("updated_at").asString())
                    .equals(e.getValue()));
  }

  static Map<String, JsonNode> awaitComplete(
      StatsApp app, String query, Map<String, Instant> lastAt) {
    List<Map<String, JsonNode>> last = new ArrayList<>();
    await()
        .atMost(Duration.ofSeconds(180))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () -> {
              Map<String, JsonNode> m = byId(tryGet(app, query));
              last.clear();
              last.add(m);
              return complete(m, lastAt);
            });
    return last.getFirst();
  }
}
