package io.freshet.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.scheduler.claims.ClaimRound;
import io.freshet.scheduler.testing.SchedulerItSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

/** What an operator scrapes: claims, emits, backlog, overdue age, in-flight, latency, health. */
class MetricsIT extends SchedulerItSupport {

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired ClaimRound claims;
  @Autowired ScheduleGauges gauges;
  @Autowired SourceCensus census;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void prometheusShowsTheScheduleAndTheClaimPath() throws Exception {
    source().nextDueAt(Instant.now().minus(Duration.ofMinutes(10))).insert();
    source().nextDueAt(Instant.now().minus(Duration.ofMinutes(3))).insert();
    gauges.refresh();
    String before = get("/actuator/prometheus");

    assertThat(before).contains("freshet_scheduler_due_backlog 2.0");
    assertThat(gaugeValue(before, "freshet_scheduler_oldest_overdue_seconds"))
        .isGreaterThanOrEqualTo(600);

    claims.claimDue();
    gauges.refresh();
    String after = get("/actuator/prometheus");

    assertThat(after).contains("freshet_scheduler_due_backlog 0.0");
    assertThat(after).contains("freshet_scheduler_leases_in_flight 2.0");
    assertThat(after).contains("freshet_scheduler_sources_claimed_total");
    assertThat(after).contains("freshet_scheduler_requests_emitted_total");
    assertThat(after).contains("freshet_scheduler_claim_latency_seconds_count");
    assertThat(after).contains("freshet_scheduler_claim_phase_seconds_count{phase=\"publish\"}");
    // Kafka client metrics on the service's own factories: the listeners' lag, the claims' sends
    assertThat(after).contains("kafka_consumer_fetch_manager_records_lag_max{");
    assertThat(after).contains("kafka_producer_record_send_total{");
  }

  @Test
  void theDueBacklogCountsEveryPriorityAndOnlyEnabledDueSources() throws Exception {
    Instant now = Instant.now();
    source().priority(5).nextDueAt(now.minus(Duration.ofMinutes(1))).insert();
    source().priority(5).nextDueAt(now.plus(Duration.ofMinutes(5))).insert();
    source().priority(0).nextDueAt(now.minus(Duration.ofMinutes(2))).insert();
    source().priority(-3).nextDueAt(now.minus(Duration.ofMinutes(30))).insert();
    source().priority(-3).nextDueAt(now.minus(Duration.ofMinutes(20))).insert();
    // disabled: neither counted nor the oldest, whatever its priority
    source().priority(9).enabled(false).nextDueAt(now.minus(Duration.ofHours(5))).insert();
    source().priority(-7).enabled(false).nextDueAt(now.minus(Duration.ofHours(6))).insert();
    gauges.refresh();
    String scraped = get("/actuator/prometheus");

    assertThat(scraped).contains("freshet_scheduler_due_backlog 4.0");
    assertThat(gaugeValue(scraped, "freshet_scheduler_oldest_overdue_seconds"))
        .isBetween(30.0 * 60, 30.0 * 60 + 120);
  }

  @Test
  void theCensusCountsSourcesByStateFailureAndInterval() throws Exception {
    Instant now = Instant.now();
    // intervals (next due - last fetch) of 10 min, 2 h and 30 h: three buckets
    source().cursor(lastFetch(now)).nextDueAt(now.plus(Duration.ofMinutes(10))).insert();
    source().cursor(lastFetch(now)).nextDueAt(now.plus(Duration.ofHours(2))).insert();
    source().cursor(lastFetch(now)).nextDueAt(now.plus(Duration.ofHours(30))).insert();
    source().enabled(false).insert();
    UUID failing = source().host("down.example.org").cursor(lastFetch(now)).insert();
    jdbc.sql(
            "UPDATE scheduler.sources SET consecutive_misses = 2, last_status = 'failed',"
                + " last_outcome_at = now() WHERE id = :id")
        .param("id", failing)
        .update();

    census.refresh();
    String scrape = get("/actuator/prometheus");

    assertThat(scrape)
        .contains("freshet_scheduler_sources{state=\"enabled\"} 4.0")
        .contains("freshet_scheduler_sources{state=\"disabled\"} 1.0")
        .contains("freshet_scheduler_sources{state=\"never_fetched\"} 3.0")
        .contains("freshet_scheduler_sources{state=\"failing\"} 1.0")
        .contains("freshet_scheduler_failing_hosts 1.0")
        .contains("freshet_scheduler_sources_failing{last_status=\"failed\"} 1.0")
        .contains("freshet_scheduler_sources_interval{bucket=\"lt_15m\"} 1.0")
        .contains("freshet_scheduler_sources_interval{bucket=\"1h_6h\"} 1.0")
        .contains("freshet_scheduler_sources_interval{bucket=\"ge_24h\"} 1.0")
        .contains("freshet_scheduler_sources_interval{bucket=\"6h_24h\"} 0.0");

    jdbc.sql("UPDATE scheduler.sources SET consecutive_misses = 0 WHERE id = :id")
        .param("id", failing)
        .update();
    census.refresh();
    assertThat(get("/actuator/prometheus"))
        .contains("freshet_scheduler_sources_failing{last_status=\"failed\"} 0.0")
        .contains("freshet_scheduler_failing_hosts 0.0");
  }

  private static String lastFetch(Instant at) {
    return "{\"last_fetch_at\":\"" + at + "\"}";
  }

  @Test
  void livenessAndReadinessAreUp() throws Exception {
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> get("/actuator/health/readiness").contains("\"UP\""));
    assertThat(get("/actuator/health/liveness")).contains("\"UP\"");
  }

  private static double gaugeValue(String scrape, String name) {
    return scrape
        .lines()
        .filter(l -> l.startsWith(name + " "))
        .map(l -> Double.parseDouble(l.substring(name.length() + 1)))
        .findFirst()
        .orElseThrow();
  }

  private String get(String path) throws Exception {
    // the probes on the public port; metrics only on the management port (ADR 0016)
    int to = path.startsWith("/actuator/health/") ? port : managementPort;
    return http.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + to + path)).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
