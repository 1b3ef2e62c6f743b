package io.freshet.stats.e2e;

import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.withEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.scheduler.SchedulerApplication;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.stats.testing.StatsApp;
import io.freshet.stats.testing.Topics;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * End to end with the scheduler (profile {@code e2e}, which puts scheduler-producer on the test
 * classpath): outcomes in → this module's {@code SourceStats} → stored on the scheduler's source
 * row → its next due time moves. The source uses {@code signal_adaptive} (social): 12 h at cold
 * start; with 3 fetches of 3 events each a week ahead, 12 h × 0.5 × 0.5 × 0.5 → the 4 h floor.
 */
@RealInfrastructure
class SchedulerEndToEndIT {

  @TempDir Path dir;

  @Test
  void statsProducedHereAreStoredOnTheSourceRowAndBringItsNextDueTimeForward(KafkaFixture kafka)
      throws Exception {
    var topics = new Topics(kafka);
    String db = Infrastructure.postgres().createDatabase("stats_e2e");
    String url = Infrastructure.postgres().jdbcUrl(db);
    JdbcClient jdbc = JdbcClient.create(Infrastructure.postgres().dataSource(db));

    try (var scheduler = startScheduler(url);
        var stats =
            StatsApp.start(
                "e2e-" + UUID.randomUUID(),
                dir.resolve("stats"),
                // the scheduler's JDBC and Flyway are on this classpath; the stats app uses neither
                "--spring.autoconfigure.exclude="
                    + "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration,"
                    + "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration")) {
      UUID id = UUID.randomUUID();
      Instant lastFetch = Instant.now().truncatedTo(ChronoUnit.SECONDS).minus(Duration.ofHours(1));
      jdbc.sql("INSERT INTO scheduler.tenants (id, tier) VALUES ('e2e', 'pro')").update();
      jdbc.sql(
              """
              INSERT INTO scheduler.sources (id, tenant_id, name, connector, url, host,
                config_json, cursor_json, enabled, priority, next_due_at, epoch)
              VALUES (:id, 'e2e', 'calendar', 'feed', 'https://e2e.example.org/c.ics',
                'e2e.example.org', :config::jsonb, :cursor::jsonb, true, 0, :due, 0)
              """)
          .param("id", id)
          .param("config", "{\"cadence\":{\"mode\":\"signal_adaptive\",\"category\":\"social\"}}")
          .param("cursor", "{\"last_fetch_at\":\"" + lastFetch + "\"}")
          .param("due", Timestamp.from(lastFetch.plus(Duration.ofHours(12))))
          .update();

      List<FetchCompleted> outcomes = new ArrayList<>();
      for (int f = 3; f >= 1; f--) {
        Instant at = lastFetch.minus(Duration.ofHours(f));
        outcomes.add(
            outcome(id.toString(), at)
                .items(
                    withEvent(id + "-" + f + "-a", at.plus(Duration.ofDays(2))),
                    withEvent(id + "-" + f + "-b", at.plus(Duration.ofDays(3))),
                    withEvent(id + "-" + f + "-c", at.plus(Duration.ofDays(4))))
                .build()); // epoch 1: stale for the scheduler, so only the stats move the row
      }
      topics.send(outcomes);

      await()
          .atMost(Duration.ofSeconds(120))
          .untilAsserted(
              () -> {
                Map<String, Object> row =
                    jdbc.sql(
                            """
                            SELECT window_fetches, avg_signal_yield, dominant_signal_type,
                              median_days_to_event, next_due_at
                            FROM scheduler.sources WHERE id = :id
                            """)
                        .param("id", id)
                        .query()
                        .singleRow();
                assertThat(row.get("window_fetches")).isEqualTo(3);
                assertThat(((Number) row.get("avg_signal_yield")).doubleValue()).isEqualTo(3.0);
                assertThat(row.get("dominant_signal_type")).isEqualTo("event");
                assertThat(((Number) row.get("median_days_to_event")).doubleValue()).isEqualTo(3.0);
                assertThat(((Timestamp) row.get("next_due_at")).toInstant())
                    .isEqualTo(lastFetch.plus(Duration.ofHours(4)));
              });
    }
  }

  static org.springframework.context.ConfigurableApplicationContext startScheduler(String url)
      throws Exception {
    int port;
    try (var s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    // This module's application.yml shadows the scheduler's on a shared classpath: its settings
    // that matter here are given explicitly.
    return new SpringApplicationBuilder(SchedulerApplication.class)
        .run(
            "--server.port=" + port,
            "--management.server.port=0",
            "--spring.datasource.url=" + url,
            "--spring.flyway.schemas=scheduler",
            "--spring.flyway.default-schema=scheduler",
            "--spring.kafka.consumer.group-id=e2e-scheduler-" + UUID.randomUUID(),
            "--spring.kafka.consumer.auto-offset-reset=earliest",
            "--spring.jackson.property-naming-strategy=LOWER_CAMEL_CASE",
            "--freshet.api.token=e2e-token",
            "--freshet.credentials.key=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            "--freshet.kafka.registry-url=" + System.getProperty("freshet.registry.url"),
            "--freshet.kafka.auto-register=true",
            "--freshet.kafka.partitions=" + Topics.PARTITIONS,
            "--freshet.scheduler.claiming-enabled=false");
  }
}
