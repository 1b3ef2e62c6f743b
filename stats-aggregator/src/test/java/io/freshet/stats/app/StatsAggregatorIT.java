package io.freshet.stats.app;

import static io.freshet.stats.testing.Outcomes.added;
import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.seen;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.stats.testing.StatsApp;
import io.freshet.stats.testing.Topics;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
class StatsAggregatorIT {

  static final Instant T = Instant.parse("2026-11-01T00:00:00Z");

  @TempDir Path dir;
  Topics topics;
  KafkaFixture kafka;

  @BeforeEach
  void topics(KafkaFixture kafka) {
    this.kafka = kafka;
    this.topics = new Topics(kafka);
  }

  @Test
  void completionsInGiveStatsOutOnceEachAndTheApiServesThem() {
    String id = UUID.randomUUID().toString();
    FetchCompleted first = outcome(id, T).items(added("a"), added("b")).build();
    topics.send(
        List.of(
            first,
            first, // the same record again (a producer retry upstream): applied once
            outcome(id, T.plusSeconds(3600)).items(added("a"), seen("b"), added("c")).build()));

    try (var app = StatsApp.start("it-basic-" + UUID.randomUUID(), dir.resolve("s"))) {
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () -> {
                List<SourceStats> stats = topics.readStats(Set.of(id)).get(id);
                assertThat(stats).hasSize(2);
                assertThat(stats.getLast().getAvgSignalYield()).isEqualTo(1.5);
                assertThat(stats.getLast().getWindowFetches()).isEqualTo(2);
              });

      var one = app.get("/stats/" + id);
      assertThat(one.statusCode()).isEqualTo(200);
      assertThat(one.body())
          .contains("\"source_id\":\"" + id + "\"")
          .contains("\"avg_signal_yield\":1.5")
          .contains("\"window_fetches\":2");

      var many = app.get("/stats?ids=" + id + ",no-such-source");
      assertThat(many.statusCode()).isEqualTo(200);
      assertThat(many.body()).contains("\"unknown\":[\"no-such-source\"]").contains(id);

      // errors are the service kit's problems, one message per problem naming its parameter
      var unknown = app.get("/stats/no-such-source");
      assertThat(unknown.statusCode()).isEqualTo(404);
      assertThat(unknown.headers().firstValue("Content-Type")).hasValue("application/problem+json");
      assertThat(unknown.body())
          .contains("\"title\":\"Not Found\"")
          .contains("\"status\":404")
          .contains("\"errors\":[\"sourceId: no stats for source 'no-such-source'\"]");
      assertThat(app.get("/stats/bad%20id").statusCode()).isEqualTo(400);
      var noIds = app.get("/stats?ids=");
      assertThat(noIds.statusCode()).isEqualTo(400);
      assertThat(noIds.body()).contains("\"errors\":[\"ids: ");
      var nul = app.get("/stats?ids=a%00b");
      assertThat(nul.statusCode()).isEqualTo(400);
      assertThat(nul.body()).contains("\"errors\":[\"ids: ").contains("NUL");
      var noRoute = app.get("/no/such/path");
      assertThat(noRoute.statusCode()).isEqualTo(404);
      assertThat(noRoute.headers().firstValue("Content-Type")).hasValue("application/problem+json");
      var tooLong = app.get("/stats?ids=" + "a".repeat(20_000));
      assertThat(tooLong.statusCode()).isBetween(400, 431);
      assertThat(tooLong.headers().firstValue("Content-Type")).hasValue("application/problem+json");
      assertThat(app.get("/actuator/health/readiness").body()).contains("UP");
      assertThat(app.get("/actuator/health").statusCode())
          .as("health details and metrics: on the management port only")
          .isEqualTo(404);
      assertThat(app.get("/actuator/prometheus").statusCode()).isEqualTo(404);
      assertThat(app.getManagement("/actuator/health").body()).contains("\"state\":\"RUNNING\"");
      String metrics = app.getManagement("/actuator/prometheus").body();
      assertThat(metrics)
          .contains("kafka_stream_thread_process_total")
          .contains("kafka_stream_thread_commit_latency_avg")
          .contains("kafka_consumer_fetch_manager_records_lag")
          .contains("freshet_stats_store_sources");
    }
  }

  @Test
  void anUndecodableRecordGoesToTheDeadLetterTopicAndTheStreamGoesOn() {
    String id = UUID.randomUUID().toString();
    topics.sendRaw(id, "garbage".getBytes(StandardCharsets.UTF_8));
    topics.send(List.of(outcome(id, T).items(added("a")).build()));

    String appId = "it-dlq-" + UUID.randomUUID();
    try (var app = StatsApp.start(appId, dir.resolve("s"))) {
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(() -> assertThat(app.get("/stats/" + id).statusCode()).isEqualTo(200));
      var props = new Properties();
      props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
      props.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-" + UUID.randomUUID());
      props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
      props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
      try (var consumer =
          new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
        consumer.subscribe(List.of(topics.topics.fetchCompleted().dlqName(appId)));
        await()
            .atMost(Duration.ofSeconds(30))
            .untilAsserted(
                () -> {
                  var dead = new java.util.ArrayList<String>();
                  consumer
                      .poll(Duration.ofMillis(500))
                      .forEach(
                          r -> {
                            if (id.equals(r.key())) {
                              dead.add(
                                  new String(
                                      r.headers().lastHeader("kafka_dlt-exception-message").value(),
                                      StandardCharsets.UTF_8));
                            }
                          });
                  assertThat(dead).singleElement().asString().contains("magic byte");
                });
      }
    }
  }

  @Test
  void aRestartedInstanceWithAnEmptyStateDirectoryResumesFromItsChangelog() {
    String id = UUID.randomUUID().toString();
    String appId = "it-restart-" + UUID.randomUUID();
    topics.send(
        List.of(
            outcome(id, T).items(added("a"), added("b")).build(),
            outcome(id, T.plusSeconds(3600)).status(FetchStatus.failed).build()));
    try (var app = StatsApp.start(appId, dir.resolve("first"))) {
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () ->
                  assertThat(app.get("/stats/" + id).body()).contains("\"consecutive_misses\":1"));
    }

    // The new instance has no local state: it must restore window, counted hashes and misses.
    topics.send(
        List.of(
            outcome(id, T.plusSeconds(7200)).items(added("a"), added("b"), added("c")).build()));
    try (var app = StatsApp.start(appId, dir.resolve("second"))) {
      await()
          .atMost(Duration.ofSeconds(90))
          .untilAsserted(
              () ->
                  assertThat(app.get("/stats/" + id).body())
                      .contains("\"window_fetches\":2")
                      .contains("\"avg_signal_yield\":1.5") // a, b then only c: (2 + 1) / 2
                      .contains("\"consecutive_misses\":0"));
    }
    List<SourceStats> emitted = topics.readStats(Set.of(id)).get(id);
    assertThat(emitted).hasSize(3);
  }
}
