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
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * A poll of outcomes or stats applied at once: several records of one source in one poll are
 * decided in order, each seeing what the one before did; duplicates and stale epochs change
 * nothing; a poison record goes to the dead-letter topic alone while the rest of its poll is
 * applied; a database failure in the middle of a poll commits nothing, and the poll is retried and
 * applied once.
 */
class OutcomeBatchesIT extends SchedulerItSupport {

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";
  private static final String OLD_CURSOR =
      "{\"etag\":\"\\\"old\\\"\",\"last_fetch_at\":\"2026-11-20T10:00:00Z\"}";

  @Autowired OutcomeApplier applier;
  @Autowired StatsApplier stats;
  @Autowired MeterRegistry meters;
  @Autowired KafkaListenerEndpointRegistry listeners;

  @Value("${spring.kafka.consumer.group-id}")
  String group;

  @AfterEach
  void resumeListeners() {
    listeners.getListenerContainers().forEach(MessageListenerContainer::resume);
  }

  @Test
  void outcomesOfOneSourceInOnePollAreDecidedInOrderEachSeeingTheOneBefore() {
    UUID id = claimedSource();
    FetchCompleted staleEpoch = completed(id, 0, FetchStatus.failed);
    FetchCompleted ok = completed(id, 1, FetchStatus.ok);
    FetchCompleted secondAnswerToTheSameClaim = completed(id, 1, FetchStatus.failed);
    secondAnswerToTheSameClaim.setErrorKind("http_5xx");

    List<Verdict<Result>> verdicts =
        applier.applyAll(List.of(staleEpoch, ok, secondAnswerToTheSameClaim, ok));

    assertThat(verdicts)
        .extracting(Verdict::result)
        .containsExactly(Result.STALE, Result.APPLIED, Result.STALE, Result.STALE);
    assertThat(column(id, "last_status", String.class)).isEqualTo("ok");
    assertThat(column(id, "consecutive_misses", Integer.class)).isZero();
    assertThat(column(id, "last_error", String.class)).isNull();
    assertThat(column(id, "cursor_json->>'etag'", String.class)).isEqualTo("\"new\"");
    assertThat(instantColumn(id, "lease_until")).isNull();
  }

  @Test
  void aDuplicateInOnePollConfirmsAMoveOnceAndAnOutcomeAfterANewClaimInThePollIsApplied() {
    UUID moved = claimedSource();
    UUID other = claimedSource();
    jdbc.sql("UPDATE scheduler.sources SET moved_to = 'https://new.example/feed' WHERE id = :id")
        .param("id", moved)
        .update();
    String oldUrl = column(moved, "url", String.class);
    FetchCompleted confirm = completed(moved, 1, FetchStatus.ok);
    confirm.setMovedTo("https://new.example/feed");
    FetchCompleted failed = completed(other, 1, FetchStatus.failed);

    List<Verdict<Result>> verdicts = applier.applyAll(List.of(confirm, failed, confirm, failed));

    assertThat(verdicts)
        .extracting(Verdict::result)
        .containsExactly(Result.APPLIED, Result.APPLIED, Result.STALE, Result.STALE);
    assertThat(column(moved, "url", String.class)).isEqualTo("https://new.example/feed");
    assertThat(column(moved, "host", String.class)).isEqualTo("new.example");
    assertThat(
            jdbc.sql("SELECT url FROM scheduler.source_url_history WHERE source_id = :id")
                .param("id", moved)
                .query(String.class)
                .list())
        .containsExactly(oldUrl);
    assertThat(column(other, "consecutive_misses", Integer.class)).isOne();
    assertThat(column(other, "last_status", String.class)).isEqualTo("failed");
  }

  @Test
  void aPollOfEveryKindStoresEachSourcesOwnOutcomeAndNamesItsPoisonRecordsAlone() {
    UUID ok = claimedSource();
    UUID notModified = claimedSource();
    UUID failed = claimedSource();
    UUID expired = claimedSource();
    FetchCompleted malformed = completed(UUID.randomUUID(), 1, FetchStatus.ok);
    malformed.setSourceId("not-a-uuid");
    FetchCompleted unknownStatus = completed(claimedSource(), 1, FetchStatus.unknown);

    List<Verdict<Result>> verdicts =
        applier.applyAll(
            List.of(
                completed(ok, 1, FetchStatus.ok),
                malformed,
                completed(notModified, 1, FetchStatus.not_modified),
                unknownStatus,
                completed(UUID.randomUUID(), 1, FetchStatus.ok),
                completed(failed, 1, FetchStatus.failed),
                completed(expired, 1, FetchStatus.expired)));

    assertThat(verdicts)
        .extracting(Verdict::result)
        .containsExactly(
            Result.APPLIED,
            null,
            Result.APPLIED,
            null,
            Result.UNKNOWN_SOURCE,
            Result.APPLIED,
            Result.APPLIED);
    assertThat(verdicts.get(1).poison()).hasMessageContaining("not-a-uuid");
    assertThat(verdicts.get(3).poison()).hasMessageContaining("newer schema");
    assertThat(column(ok, "cursor_json->>'etag'", String.class)).isEqualTo("\"new\"");
    assertThat(column(notModified, "last_status", String.class)).isEqualTo("not_modified");
    assertThat(column(failed, "consecutive_misses", Integer.class)).isOne();
    assertThat(instantColumn(expired, "next_due_at")).isBeforeOrEqualTo(Instant.now());
    assertThat(instantColumn(UUID.fromString(unknownStatus.getSourceId()), "lease_until"))
        .as("a poison outcome changes nothing")
        .isNotNull();
    for (UUID id : List.of(ok, notModified, failed, expired)) {
      assertThat(instantColumn(id, "lease_until")).isNull();
    }
  }

  @Test
  void statsOfOneSourceInOnePollCountInOrderAndTheNewestIsStored() {
    UUID a = source().config(HOURLY).cursor(OLD_CURSOR).insert();
    UUID b = source().config(HOURLY).cursor(OLD_CURSOR).insert();
    Instant t = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    List<Verdict<Boolean>> verdicts =
        stats.applyAll(
            List.of(
                stats(a, t, 1.0),
                stats(b, t.minusSeconds(60), 5.0),
                stats(a, t.minusSeconds(60), 2.0),
                stats(b, t, 6.0),
                stats(a, t, 3.0)));

    assertThat(verdicts).extracting(Verdict::result).containsExactly(true, true, false, true, true);
    assertThat(column(a, "avg_signal_yield", Double.class)).isEqualTo(3.0);
    assertThat(column(b, "avg_signal_yield", Double.class)).isEqualTo(6.0);
    assertThat(instantColumn(a, "stats_updated_at")).isEqualTo(t);
    assertThat(column(a, "recent_published_at[1]", java.sql.Timestamp.class).toInstant())
        .isEqualTo(t.minusSeconds(1200));
    // hourly from the last fetch, capped by nothing else: the stored stats reschedule
    assertThat(instantColumn(a, "next_due_at")).isEqualTo(Instant.parse("2026-11-20T11:00:00Z"));

    assertThat(stats.applyAll(List.of(stats(a, t.minusSeconds(1), 9.0))))
        .extracting(Verdict::result)
        .containsExactly(false);
    assertThat(column(a, "avg_signal_yield", Double.class)).isEqualTo(3.0);
  }

  @Test
  void aPoisonRecordInTheMiddleOfAPollGoesToTheDlqAloneAndTheRestIsApplied() throws Exception {
    UUID first = claimedSource();
    UUID last = claimedSource();
    String marker = "not-avro-" + UUID.randomUUID();
    FetchCompleted malformed = completed(UUID.randomUUID(), 1, FetchStatus.ok);
    malformed.setSourceId("bad-id-" + UUID.randomUUID());
    double appliedBefore = outcomes("ok", "applied");

    // One key: one partition, so the poll holds the records in this order.
    inOnePoll(
        "fetch-completed",
        List.of(
            outcome(completed(first, 1, FetchStatus.ok)),
            marker.getBytes(),
            outcome(malformed),
            outcome(completed(last, 1, FetchStatus.ok))));

    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                "ok".equals(column(first, "last_status", String.class))
                    && "ok".equals(column(last, "last_status", String.class)));
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> dlqValues().stream().anyMatch(v -> v.equals(marker)));
    List<String> letters = dlqValues();
    assertThat(letters).filteredOn(v -> v.equals(marker)).hasSize(1);
    assertThat(letters).filteredOn(v -> v.contains(malformed.getSourceId())).hasSize(1);
    assertThat(letters).noneMatch(v -> v.contains(first.toString()) || v.contains(last.toString()));
    assertThat(outcomes("ok", "applied") - appliedBefore).isEqualTo(2.0);
  }

  @Test
  void aDatabaseFailureInTheMiddleOfAPollCommitsNothingAndThePollIsAppliedOnceWhenItIsBack()
      throws Exception {
    List<UUID> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ids.add(claimedSource());
    }
    // The poll locks its rows in id order: hold the last, so the poll has locked the others and
    // waits inside its transaction when its connection is cut.
    UUID held =
        jdbc.sql("SELECT id FROM scheduler.sources ORDER BY id DESC LIMIT 1")
            .query(UUID.class)
            .single();
    double appliedBefore = outcomes("failed", "applied");
    try (Connection blocker = connect()) {
      blocker.setAutoCommit(false);
      try (var st =
          blocker.prepareStatement("SELECT 1 FROM scheduler.sources WHERE id = ? FOR UPDATE")) {
        st.setObject(1, held);
        st.executeQuery();
      }
      List<byte[]> values = new ArrayList<>();
      for (UUID id : ids) {
        values.add(outcome(completed(id, 1, FetchStatus.failed)));
      }
      inOnePoll("fetch-completed", values);

      await().atMost(Duration.ofSeconds(30)).until(() -> !waitingPollBackends().isEmpty());
      for (int pid : waitingPollBackends()) {
        jdbc.sql("SELECT pg_terminate_backend(:pid)").param("pid", pid).query((rs, n) -> 0).list();
      }
      // Nothing of the poll is stored while it cannot finish: the retry waits on the held row.
      await().atMost(Duration.ofSeconds(30)).until(() -> !waitingPollBackends().isEmpty());
      for (UUID id : ids) {
        assertThat(column(id, "consecutive_misses", Integer.class)).isZero();
        assertThat(instantColumn(id, "lease_until")).isNotNull();
      }
      blocker.rollback();
    }

    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                ids.stream()
                    .allMatch(id -> "failed".equals(column(id, "last_status", String.class))));
    for (UUID id : ids) {
      assertThat(column(id, "consecutive_misses", Integer.class)).isOne();
    }
    assertThat(outcomes("failed", "applied") - appliedBefore).isEqualTo(4.0);
    assertThat(dlqValues()).noneMatch(v -> ids.stream().anyMatch(id -> v.contains(id.toString())));
  }

  /**
   * Sends {@code values} with one key in one producer batch, so that they reach the listener in one
   * poll, in this order: a fetch returns a partition's record batches whole.
   */
  private void inOnePoll(String listenerId, List<byte[]> values) throws Exception {
    MessageListenerContainer container = listeners.getListenerContainer(listenerId);
    container.pause();
    await().atMost(Duration.ofSeconds(30)).until(container::isContainerPaused);
    byte[] key = UUID.randomUUID().toString().getBytes();
    try (var producer = rawProducer(Map.of(ProducerConfig.LINGER_MS_CONFIG, 1_000))) {
      List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
      for (byte[] value : values) {
        sent.add(producer.send(new ProducerRecord<>(topics.fetchCompleted().name(), key, value)));
      }
      producer.flush();
      for (var f : sent) {
        f.get();
      }
    }
    container.resume();
  }

  private List<Integer> waitingPollBackends() {
    return jdbc.sql(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                + " AND wait_event_type = 'Lock' AND query LIKE '%ANY(%FOR UPDATE OF s%'")
        .query(Integer.class)
        .list();
  }

  private static Connection connect() throws Exception {
    var pg = Infrastructure.postgres();
    return DriverManager.getConnection(pg.jdbcUrl(database()), pg.username(), pg.password());
  }

  private double outcomes(String status, String result) {
    Counter counter =
        meters
            .find("freshet.scheduler.outcomes")
            .tag("status", status)
            .tag("result", result)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private byte[] outcome(FetchCompleted event) {
    return topics
        .fetchCompleted()
        .valueSerde()
        .serializer()
        .serialize(topics.fetchCompleted().name(), event);
  }

  /** The values of every letter in the outcome topic's dead-letter topic, as text. */
  private List<String> dlqValues() {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<String> values = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topics.fetchCompleted().dlqName(group)));
      for (int i = 0; i < 10; i++) {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(300))) {
          values.add(new String(r.value(), java.nio.charset.StandardCharsets.ISO_8859_1));
        }
      }
    }
    return values;
  }

  private UUID claimedSource() {
    return source()
        .config(HOURLY)
        .cursor(OLD_CURSOR)
        .claimed(1, Instant.now().plus(Duration.ofMinutes(5)))
        .insert();
  }

  private static SourceStats stats(UUID id, Instant updatedAt, double yield) {
    return SourceStats.newBuilder()
        .setSourceId(id.toString())
        .setWindowFetches(10)
        .setAvgSignalYield(yield)
        .setDominantSignalType(SignalType.event)
        .setTypeCounts(Map.of("event", 12L))
        .setRecentPublishedAt(List.of(updatedAt.minusSeconds(1200), updatedAt.minusSeconds(2400)))
        .setPublishIntervalAvg(20 * 60_000L)
        .setChangeRate(3.0)
        .setUpdatedAt(updatedAt)
        .build();
  }

  private static KafkaProducer<byte[], byte[]> rawProducer(Map<String, Object> settings) {
    var props = new Properties();
    props.putAll(settings);
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    return new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
