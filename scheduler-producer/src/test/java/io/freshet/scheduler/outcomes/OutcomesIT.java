package io.freshet.scheduler.outcomes;

import static io.freshet.scheduler.testing.TestEvents.completed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.scheduler.outcomes.OutcomeApplier.Result;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.testsupport.Infrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The outcome rules per status of docs/design.md (Outcomes), epochs, duplicates, stats, and the
 * Kafka path with its DLQ.
 */
class OutcomesIT extends SchedulerItSupport {

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";
  private static final String OLD_CURSOR =
      "{\"etag\":\"\\\"old\\\"\",\"last_fetch_at\":\"2026-11-20T10:00:00Z\"}";

  @Autowired OutcomeApplier applier;
  @Autowired StatsApplier stats;
  @Autowired io.micrometer.core.instrument.MeterRegistry meters;

  @org.springframework.beans.factory.annotation.Value("${spring.kafka.consumer.group-id}")
  String group;

  @Autowired io.freshet.scheduler.claims.ClaimRound claimRound;

  @Test
  void okStoresTheNewCursorAndLastFetchAtResetsMissesAndReleasesTheLease() {
    UUID id = claimedSource();
    jdbc.sql("UPDATE scheduler.sources SET consecutive_misses = 2 WHERE id = :id")
        .param("id", id)
        .update();
    FetchCompleted ok = completed(id, 1, FetchStatus.ok);

    assertThat(applier.apply(ok)).isEqualTo(Result.APPLIED);

    assertThat(instantColumn(id, "lease_until")).isNull();
    assertThat(column(id, "cursor_json->>'etag'", String.class)).isEqualTo("\"new\"");
    assertThat(column(id, "cursor_json->>'last_fetch_at'", String.class))
        .isEqualTo(ok.getFinishedAt().toString());
    assertThat(column(id, "consecutive_misses", Integer.class)).isZero();
    assertThat(column(id, "last_status", String.class)).isEqualTo("ok");
    // An hour, plus this source's jitter (at most 2 % of the interval, 2 minutes; ServerRules).
    assertThat(instantColumn(id, "next_due_at"))
        .isBetween(
            ok.getFinishedAt().plus(Duration.ofMinutes(60)).minusSeconds(2),
            ok.getFinishedAt().plus(Duration.ofMinutes(62)).plusSeconds(2));
  }

  @Test
  void notModifiedReschedulesFromTheFetchAndKeepsTheCursor() {
    UUID id = claimedSource();
    FetchCompleted notModified = completed(id, 1, FetchStatus.not_modified);

    assertThat(applier.apply(notModified)).isEqualTo(Result.APPLIED);

    assertThat(column(id, "cursor_json->>'etag'", String.class)).isEqualTo("\"old\"");
    assertThat(column(id, "cursor_json->>'last_fetch_at'", String.class))
        .isEqualTo(notModified.getFinishedAt().toString());
    assertThat(instantColumn(id, "next_due_at"))
        .isBetween(
            notModified.getFinishedAt().plus(Duration.ofMinutes(60)).minusSeconds(2),
            notModified.getFinishedAt().plus(Duration.ofMinutes(62)).plusSeconds(2));
    assertThat(instantColumn(id, "lease_until")).isNull();
  }

  @Test
  void failureKeepsCursorAndLastFetchAtCountsAMissAndHonoursRetryAfter() {
    UUID id = claimedSource();
    Instant retryAfter = Instant.now().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.MILLIS);
    FetchCompleted failed = completed(id, 1, FetchStatus.failed);
    failed.setCursor(null);
    failed.setErrorKind("http_5xx");
    failed.setErrorMessage("503 Service Unavailable");
    failed.setRetryAfter(retryAfter);

    assertThat(applier.apply(failed)).isEqualTo(Result.APPLIED);

    assertThat(cursor(id)).isEqualTo(normalized(OLD_CURSOR));
    assertThat(column(id, "consecutive_misses", Integer.class)).isOne();
    assertThat(column(id, "last_error", String.class))
        .isEqualTo("http_5xx: 503 Service Unavailable");
    assertThat(instantColumn(id, "retry_after")).isEqualTo(retryAfter);
    assertThat(instantColumn(id, "next_due_at")).isAfterOrEqualTo(retryAfter);
    assertThat(instantColumn(id, "lease_until")).isNull();
  }

  @Test
  void statsAfterAFailureOfANeverFetchedSourceKeepItsBackoffAndRetryAfter() {
    // Stats once made a never-fetched source due at once, cancelling Retry-After.
    UUID id =
        source().config(HOURLY).claimed(1, Instant.now().plus(Duration.ofMinutes(5))).insert();
    Instant retryAfter = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
    FetchCompleted failed = completed(id, 1, FetchStatus.failed);
    failed.setCursor(null);
    failed.setHttpStatus(429);
    failed.setErrorKind("http_4xx");
    failed.setErrorMessage("429 Too Many Requests");
    failed.setRetryAfter(retryAfter);
    assertThat(applier.apply(failed)).isEqualTo(Result.APPLIED);
    Instant backedOff = instantColumn(id, "next_due_at");
    assertThat(backedOff).isAfterOrEqualTo(retryAfter);

    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    assertThat(stats.apply(stats(id, now, 0.0, List.of()))).isTrue();

    assertThat(instantColumn(id, "next_due_at")).isAfterOrEqualTo(retryAfter).isEqualTo(backedOff);
  }

  @Test
  void statsOfANeverFetchedSourceThatNeverFailedLeaveItDueNow() {
    UUID id = source().config(HOURLY).insert();
    Instant before = Instant.now().minusSeconds(1);

    assertThat(stats.apply(stats(id, Instant.now(), 0.0, List.of()))).isTrue();

    assertThat(instantColumn(id, "next_due_at")).isBefore(Instant.now().plusSeconds(5));
    assertThat(instantColumn(id, "next_due_at")).isAfter(before.minusSeconds(3600));
  }

  @Test
  void aLateOutcomeIsAppliedUntilTheSourceIsClaimedAgainAndStaleAfter() {
    UUID id =
        source()
            .config(HOURLY)
            .cursor(OLD_CURSOR)
            .claimed(1, Instant.now().minus(Duration.ofMinutes(1)))
            .insert();

    assertThat(applier.apply(completed(id, 1, FetchStatus.ok))).isEqualTo(Result.APPLIED);
    assertThat(column(id, "cursor_json->>'etag'", String.class)).isEqualTo("\"new\"");

    claimAgain(id, 2);
    assertThat(applier.apply(completed(id, 1, FetchStatus.failed))).isEqualTo(Result.STALE);
    assertThat(column(id, "consecutive_misses", Integer.class)).isZero();
  }

  @Test
  void consecutiveFailuresBackOffFurtherEachTime() {
    UUID id = claimedSource();
    applier.apply(completed(id, 1, FetchStatus.failed));
    Instant firstBackoff = instantColumn(id, "next_due_at");
    claimAgain(id, 2);
    applier.apply(completed(id, 2, FetchStatus.failed));
    Instant secondBackoff = instantColumn(id, "next_due_at");

    assertThat(column(id, "consecutive_misses", Integer.class)).isEqualTo(2);
    assertThat(Duration.between(Instant.now(), secondBackoff))
        .isGreaterThan(Duration.between(Instant.now(), firstBackoff));
  }

  @Test
  void aDuplicateOrStaleOutcomeChangesNothing() {
    UUID id = claimedSource();
    FetchCompleted ok = completed(id, 1, FetchStatus.ok);
    applier.apply(ok);
    String cursorAfterFirst = cursor(id);
    Instant dueAfterFirst = instantColumn(id, "next_due_at");

    assertThat(applier.apply(ok)).isEqualTo(Result.STALE);
    assertThat(applier.apply(completed(id, 0, FetchStatus.failed))).isEqualTo(Result.STALE);

    assertThat(cursor(id)).isEqualTo(cursorAfterFirst);
    assertThat(instantColumn(id, "next_due_at")).isEqualTo(dueAfterFirst);
    assertThat(column(id, "consecutive_misses", Integer.class)).isZero();
  }

  @Test
  void anExpiredRequestMakesTheSourceDueAgainWithoutCountingAMiss() {
    UUID id = claimedSource();

    assertThat(applier.apply(completed(id, 1, FetchStatus.expired))).isEqualTo(Result.APPLIED);

    assertThat(instantColumn(id, "next_due_at")).isBeforeOrEqualTo(Instant.now());
    assertThat(column(id, "consecutive_misses", Integer.class)).isZero();
    assertThat(cursor(id)).isEqualTo(normalized(OLD_CURSOR));
  }

  @Test
  void aManualFetchAskedForDuringAFetchMakesTheSourceDueRightAfterIt() {
    UUID id = claimedSource();
    jdbc.sql("UPDATE scheduler.sources SET manual_requested = true WHERE id = :id")
        .param("id", id)
        .update();

    applier.apply(completed(id, 1, FetchStatus.ok));

    assertThat(instantColumn(id, "next_due_at")).isBeforeOrEqualTo(Instant.now());
    // The follow-up request must still say it was asked for by a user.
    assertThat(column(id, "manual_requested", Boolean.class)).isTrue();
    assertThat(claimRound.claimDue()).isOne();
    assertThat(requestsOfTenant())
        .filteredOn(r -> r.getSourceId().equals(id.toString()))
        .singleElement()
        .satisfies(r -> assertThat(r.getManual()).isTrue());
    assertThat(column(id, "manual_requested", Boolean.class)).isFalse();
  }

  @Test
  void outcomesArriveThroughKafkaAndAMalformedRecordGoesToTheDlqWithoutStoppingThem()
      throws Exception {
    UUID id = claimedSource();
    var serde = topics.fetchCompleted().valueSerde();
    byte[] good =
        serde
            .serializer()
            .serialize(topics.fetchCompleted().name(), completed(id, 1, FetchStatus.ok));
    String marker = "not-avro-" + UUID.randomUUID();

    try (var producer = rawProducer()) {
      producer
          .send(
              new ProducerRecord<>(
                  topics.fetchCompleted().name(), id.toString().getBytes(), marker.getBytes()))
          .get();
      producer
          .send(
              new ProducerRecord<>(topics.fetchCompleted().name(), id.toString().getBytes(), good))
          .get();
    }

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> "ok".equals(column(id, "last_status", String.class)));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> dlqContains(topics.fetchCompleted().dlqName(group), marker));
    assertThat(
            meters
                .get("freshet.dead.letters")
                .tag("topic", topics.fetchCompleted().name())
                .tag("group", group)
                .counter()
                .count())
        .isGreaterThanOrEqualTo(1.0);
  }

  @Test
  void anOutcomeWaitsOutADatabaseOutageAndIsAppliedWhenTheDatabaseIsBack() throws Exception {
    UUID id = claimedSource();
    byte[] ok =
        topics
            .fetchCompleted()
            .valueSerde()
            .serializer()
            .serialize(topics.fetchCompleted().name(), completed(id, 1, FetchStatus.ok));

    withDatabaseDown(
        () -> {
          try (var producer = rawProducer()) {
            producer
                .send(
                    new ProducerRecord<>(
                        topics.fetchCompleted().name(), id.toString().getBytes(), ok))
                .get();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          // The listener meets the outage and retries; the outcome must neither be lost nor sent to
          // the DLQ meanwhile.
          await()
              .during(Duration.ofSeconds(6))
              .atMost(Duration.ofSeconds(10))
              .until(() -> !dlqContainsKey(topics.fetchCompleted().dlqName(group), id.toString()));
        });

    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> "ok".equals(column(id, "last_status", String.class)));
    assertThat(instantColumn(id, "lease_until")).isNull();
    assertThat(dlqContainsKey(topics.fetchCompleted().dlqName(group), id.toString())).isFalse();
  }

  @Test
  void statsAreStoredOnTheRowOlderStatsAreIgnoredAndTheDueTimeFollows() throws Exception {
    UUID id =
        source().config("{\"cadence\":{\"mode\":\"feed_frequency\"}}").cursor(OLD_CURSOR).insert();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<Instant> published =
        List.of(
            now.minus(Duration.ofMinutes(20)),
            now.minus(Duration.ofMinutes(40)),
            now.minus(Duration.ofMinutes(60)));
    SourceStats fresh = stats(id, now, 3.0, published);

    try (var producer = rawProducer()) {
      producer
          .send(
              new ProducerRecord<>(
                  topics.sourceStats().name(),
                  id.toString().getBytes(),
                  topics
                      .sourceStats()
                      .valueSerde()
                      .serializer()
                      .serialize(topics.sourceStats().name(), fresh)))
          .get();
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> column(id, "stats_updated_at", java.sql.Timestamp.class) != null);

    assertThat(column(id, "avg_signal_yield", Double.class)).isEqualTo(3.0);
    assertThat(column(id, "dominant_signal_type", String.class)).isEqualTo("event");
    // feed_frequency wants 20 minutes after the last fetch (the items' mean gap), but the tenant's
    // pro tier allows at most hourly fetches: 2026-11-20T10:00 + 1 h.
    assertThat(instantColumn(id, "next_due_at")).isEqualTo(Instant.parse("2026-11-20T11:00:00Z"));

    assertThat(stats.apply(stats(id, now.minusSeconds(600), 9.0, List.of()))).isFalse();
    assertThat(column(id, "avg_signal_yield", Double.class)).isEqualTo(3.0);
  }

  @Test
  void theServersWordIsStoredAMoveConfirmedTwiceChangesTheUrlAndGoneDisables() {
    UUID id = claimedSource();
    String oldUrl = column(id, "url", String.class);
    FetchCompleted first = completed(id, 1, FetchStatus.ok);
    first.setMovedTo("https://moved.example/feed.xml?key=s3cr3t");
    first.setHubUrl("https://hub.example/");
    first.setHints(
        io.freshet.schemas.avro.ServerHints.newBuilder()
            .setTtlMinutes(240)
            .setSkipHours(java.util.List.of(3, 4))
            .build());

    assertThat(applier.apply(first)).isEqualTo(Result.APPLIED);

    assertThat(column(id, "moved_to", String.class))
        .isEqualTo("https://moved.example/feed.xml?key=s3cr3t");
    assertThat(column(id, "url", String.class)).as("one fetch does not move").isEqualTo(oldUrl);
    assertThat(column(id, "hub_url", String.class)).isEqualTo("https://hub.example/");
    assertThat(column(id, "hints->>'ttl_minutes'", String.class)).isEqualTo("240");
    Instant held = instantColumn(id, "hint_not_before");
    assertThat(held).isAfterOrEqualTo(first.getFinishedAt().plus(Duration.ofMinutes(240)));
    assertThat(instantColumn(id, "next_due_at")).isAfterOrEqualTo(held);

    claimAgain(id, 2);
    FetchCompleted second = completed(id, 2, FetchStatus.ok);
    second.setMovedTo("https://moved.example/feed.xml?key=s3cr3t");
    assertThat(applier.apply(second)).isEqualTo(Result.APPLIED);

    assertThat(column(id, "url", String.class))
        .isEqualTo("https://moved.example/feed.xml?key=s3cr3t");
    assertThat(column(id, "host", String.class)).isEqualTo("moved.example");
    assertThat(column(id, "moved_to", String.class)).isNull();
    assertThat(column(id, "hint_not_before", String.class)).as("no hints this time").isNull();
    assertThat(
            jdbc.sql(
                    "SELECT url || ' -> ' || replaced_by || ' ' || reason"
                        + " FROM scheduler.source_url_history WHERE source_id = :id")
                .param("id", id)
                .query(String.class)
                .list())
        .containsExactly(
            oldUrl + " -> https://moved.example/feed.xml?key=s3cr3t moved_permanently");

    claimAgain(id, 3);
    FetchCompleted gone = completed(id, 3, FetchStatus.failed);
    gone.setHttpStatus(410);
    gone.setErrorKind("http_4xx");
    assertThat(applier.apply(gone)).isEqualTo(Result.APPLIED);

    assertThat(column(id, "enabled", Boolean.class)).isFalse();
    assertThat(column(id, "disabled_reason", String.class)).isEqualTo("gone");
    assertThat(meters.find("freshet.scheduler.sources.moved").counter().count()).isPositive();
    assertThat(
            meters
                .find("freshet.scheduler.sources.disabled")
                .tag("reason", "gone")
                .counter()
                .count())
        .isPositive();
    // ttl, or skip when the fetch's time plus the ttl falls in a skipped hour
    assertThat(
            meters.find("freshet.scheduler.hints.held").counters().stream()
                .mapToDouble(io.micrometer.core.instrument.Counter::count)
                .sum())
        .isPositive();
  }

  private UUID claimedSource() {
    return source()
        .config(HOURLY)
        .cursor(OLD_CURSOR)
        .claimed(1, Instant.now().plus(Duration.ofMinutes(5)))
        .insert();
  }

  private void claimAgain(UUID id, long epoch) {
    jdbc.sql(
            "UPDATE scheduler.sources SET epoch = :epoch, lease_until = now() + interval '5 minutes' WHERE id = :id")
        .param("epoch", epoch)
        .param("id", id)
        .update();
  }

  private String cursor(UUID id) {
    return column(id, "cursor_json::text", String.class);
  }

  private String normalized(String json) {
    return jdbc.sql("SELECT CAST(:j AS jsonb)::text").param("j", json).query(String.class).single();
  }

  private static org.assertj.core.data.TemporalUnitOffset within(int seconds) {
    return new org.assertj.core.data.TemporalUnitWithinOffset(seconds, ChronoUnit.SECONDS);
  }

  private static SourceStats stats(
      UUID id, Instant updatedAt, double yield, List<Instant> published) {
    return SourceStats.newBuilder()
        .setSourceId(id.toString())
        .setWindowFetches(10)
        .setAvgSignalYield(yield)
        .setDominantSignalType(SignalType.event)
        .setTypeCounts(Map.of("event", 12L))
        .setRecentPublishedAt(published)
        .setPublishIntervalAvg(published.size() < 2 ? null : 20 * 60_000L)
        .setChangeRate(3.0)
        .setUpdatedAt(updatedAt)
        .build();
  }

  private static KafkaProducer<byte[], byte[]> rawProducer() {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static boolean dlqContainsKey(String dlq, String key) {
    return dlqAny(dlq, record -> record.key() != null && new String(record.key()).equals(key));
  }

  private static boolean dlqContains(String dlq, String marker) {
    return dlqAny(dlq, record -> new String(record.value()).equals(marker));
  }

  private static boolean dlqAny(
      String dlq,
      java.util.function.Predicate<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>>
          match) {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (var consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(dlq));
      for (int i = 0; i < 10; i++) {
        for (var record : consumer.poll(Duration.ofMillis(300))) {
          if (match.test(record)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
