package io.freshet.scheduler.outcomes;

import static io.freshet.scheduler.testing.TestEvents.completed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.topic.Topic;
import io.freshet.testsupport.Infrastructure;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * The fetch-worker and the stats-aggregator write in Kafka transactions: what an aborted
 * transaction wrote never happened, so the scheduler must not apply it. An aborted attempt's
 * FetchCompleted taken for the claim's answer would store a cursor whose {@code seen} digest lists
 * items that were never emitted, and the committed retry of the same epoch would be ignored as
 * already answered.
 */
class OutcomesReadCommittedIT extends SchedulerItSupport {

  @Autowired MeterRegistry meters;

  @Value("${spring.kafka.consumer.group-id}")
  String group;

  @Test
  void appliesOnlyTheCommittedOutcomeOfATransactionalWorker() throws Exception {
    UUID id = source().claimed(1, Instant.now().plus(Duration.ofMinutes(5))).insert();
    double appliedBefore = outcomes("applied");
    double staleBefore = outcomes("stale");

    RecordMetadata committed;
    try (var worker = transactionalProducer()) {
      worker.beginTransaction();
      send(worker, topics.fetchCompleted(), id, attempt(id, "\"aborted\"", "X", "Y", "Z"));
      worker.flush();
      worker.abortTransaction();

      worker.beginTransaction();
      committed = send(worker, topics.fetchCompleted(), id, attempt(id, "\"committed\"", "X", "Y"));
      worker.commitTransaction();
    }
    awaitListenerPast(committed);

    String etag = column(id, "cursor_json->>'etag'", String.class);
    String seen = column(id, "cursor_json->>'seen'", String.class);
    long applied = Math.round(outcomes("applied") - appliedBefore);
    long ignored = Math.round(outcomes("stale") - staleBefore);
    System.out.printf(
        "read_committed reconciliation: outcomes sent 2 (1 aborted, 1 committed), applied %d,"
            + " applied-from-aborted %d, ignored as already answered %d, cursor etag=%s seen=%s%n",
        applied, "\"aborted\"".equals(etag) ? 1 : 0, ignored, etag, seen);

    assertThat(etag).as("cursor etag stored for epoch 1").isEqualTo("\"committed\"");
    assertThat(seen).as("cursor seen digest stored for epoch 1").isEqualTo("X,Y");
    assertThat(applied).as("outcomes applied").isOne();
    assertThat(ignored).as("outcomes ignored as already answered").isZero();
    assertThat(instantColumn(id, "lease_until")).isNull();
  }

  @Test
  void storesOnlyCommittedStatsEvenWhenAbortedOnesAreNewer() throws Exception {
    UUID id = source().insert();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    RecordMetadata committed;
    try (var aggregator = transactionalProducer()) {
      aggregator.beginTransaction();
      send(aggregator, topics.sourceStats(), id, stats(id, now, 9.0));
      aggregator.flush();
      aggregator.abortTransaction();

      aggregator.beginTransaction();
      committed = send(aggregator, topics.sourceStats(), id, stats(id, now.minusSeconds(60), 3.0));
      aggregator.commitTransaction();
    }
    awaitListenerPast(committed);

    Double yield = column(id, "avg_signal_yield", Double.class);
    System.out.printf(
        "read_committed reconciliation: stats sent 2 (1 aborted, 1 committed),"
            + " applied-from-aborted %d, avg_signal_yield=%s%n",
        Double.valueOf(9.0).equals(yield) ? 1 : 0, yield);

    assertThat(yield).as("avg_signal_yield stored").isEqualTo(3.0);
    assertThat(instantColumn(id, "stats_updated_at")).isEqualTo(now.minusSeconds(60));
  }

  /** One fetch attempt's answer for epoch 1: status ok, the given ETag, the items it read. */
  private static FetchCompleted attempt(UUID id, String etag, String... items) {
    FetchCompleted event = completed(id, 1, FetchStatus.ok);
    event.setCursor(Map.of("etag", etag, "seen", String.join(",", items)));
    event.setItemCount(items.length);
    event.setItems(
        Arrays.stream(items)
            .map(item -> ItemDigest.newBuilder().setItemId(item).setContentHash(item).build())
            .toList());
    return event;
  }

  private static SourceStats stats(UUID id, Instant updatedAt, double yield) {
    return SourceStats.newBuilder()
        .setSourceId(id.toString())
        .setWindowFetches(10)
        .setAvgSignalYield(yield)
        .setChangeRate(1.0)
        .setUpdatedAt(updatedAt)
        .build();
  }

  private double outcomes(String result) {
    Counter counter =
        meters.find("freshet.scheduler.outcomes").tags("status", "ok", "result", result).counter();
    return counter == null ? 0 : counter.count();
  }

  private static <V> RecordMetadata send(
      KafkaProducer<byte[], byte[]> producer, Topic<String, V> topic, UUID id, V value)
      throws Exception {
    byte[] bytes = topic.valueSerde().serializer().serialize(topic.name(), value);
    return producer.send(new ProducerRecord<>(topic.name(), id.toString().getBytes(), bytes)).get();
  }

  /** Waits until the scheduler's listeners have committed their offset past {@code record}. */
  private void awaitListenerPast(RecordMetadata record) {
    var partition = new TopicPartition(record.topic(), record.partition());
    var props = new Properties();
    props.put(
        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    try (var admin = Admin.create(props)) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                OffsetAndMetadata offset =
                    admin
                        .listConsumerGroupOffsets(group)
                        .partitionsToOffsetAndMetadata()
                        .get()
                        .get(partition);
                return offset != null && offset.offset() > record.offset();
              });
    }
  }

  private static KafkaProducer<byte[], byte[]> transactionalProducer() {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-worker-" + UUID.randomUUID());
    var producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
    producer.initTransactions();
    return producer;
  }
}
