package io.freshet.cadence.replay;

import io.freshet.schemas.topic.Topic;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a recorded topic from a point in time to its current end with a consumer that belongs to no
 * group: partitions are assigned, positions found with {@code offsetsForTimes}, and nothing is
 * committed, so the live application's offsets and group are untouched.
 */
final class OutcomeReader {

  /** How long a broker may take to answer one request of the replay. */
  static final Duration TIMEOUT = Duration.ofSeconds(15);

  private final String bootstrap;
  private final Properties config;
  private final PrintStream progress;

  OutcomeReader(String bootstrap, PrintStream progress) {
    this.bootstrap = bootstrap;
    this.config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "freshet-replay");
    this.progress = progress;
  }

  /**
   * The newest record time on {@code topic} (the end of the recording), or null when it holds no
   * record.
   *
   * @throws IllegalArgumentException if the topic does not exist
   * @throws IllegalStateException if the brokers do not answer in time
   */
  Instant newest(String topic) {
    Properties a = new Properties();
    a.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    a.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    a.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    a.put(AdminClientConfig.CLIENT_ID_CONFIG, "freshet-replay");
    try (Admin admin = Admin.create(a)) {
      var description =
          admin
              .describeTopics(List.of(topic))
              .allTopicNames()
              .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
              .get(topic);
      Map<TopicPartition, OffsetSpec> query = new HashMap<>();
      description
          .partitions()
          .forEach(
              p -> query.put(new TopicPartition(topic, p.partition()), OffsetSpec.maxTimestamp()));
      long max =
          admin
              .listOffsets(query)
              .all()
              .get(TIMEOUT.toSeconds(), TimeUnit.SECONDS)
              .values()
              .stream()
              .mapToLong(ListOffsetsResultInfo::timestamp)
              .max()
              .orElse(-1);
      return max < 0 ? null : Instant.ofEpochMilli(max);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException) {
        throw unreachable();
      }
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new IllegalArgumentException("topic " + topic + " does not exist at " + bootstrap);
      }
      throw new IllegalStateException("Kafka at " + bootstrap + ": " + e.getCause().getMessage());
    } catch (TimeoutException e) {
      throw unreachable();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted");
    }
  }

  private IllegalStateException unreachable() {
    return new IllegalStateException(
        "Kafka at " + bootstrap + " did not answer within " + TIMEOUT.toSeconds() + " s");
  }

  /** Summary of one read. */
  record Read(long records, long used, long undecodable) {}

  /**
   * Feeds every decodable record with a timestamp in [{@code from}, {@code to}) to {@code sink}.
   */
  <T> Read read(Topic<String, T> topic, Instant from, Instant to, Consumer<T> sink) {
    Deserializer<T> values = topic.valueSerde().deserializer();
    long records = 0;
    long used = 0;
    long bad = 0;
    try (var consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> partitions;
      try {
        partitions =
            consumer.partitionsFor(topic.name(), TIMEOUT).stream()
                .map(p -> new TopicPartition(p.topic(), p.partition()))
                .toList();
      } catch (org.apache.kafka.common.errors.TimeoutException e) {
        throw unreachable();
      }
      if (partitions.isEmpty()) {
        throw new IllegalArgumentException("topic " + topic.name() + " does not exist");
      }
      consumer.assign(partitions);
      Map<TopicPartition, Long> query = new HashMap<>();
      partitions.forEach(p -> query.put(p, from.toEpochMilli()));
      var starts = consumer.offsetsForTimes(query, TIMEOUT);
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, TIMEOUT);
      long total = 0;
      for (TopicPartition p : partitions) {
        var start = starts.get(p);
        long offset = start == null ? ends.get(p) : start.offset();
        consumer.seek(p, offset);
        total += ends.get(p) - offset;
      }
      progress.printf("[replay] reading %d records of %s from %s%n", total, topic.name(), from);
      long lastReport = System.nanoTime();
      while (!done(consumer, partitions, ends)) {
        for (var r : consumer.poll(Duration.ofMillis(500))) {
          records++;
          if (r.timestamp() < from.toEpochMilli()
              || (to != null && r.timestamp() >= to.toEpochMilli())
              || r.value() == null) {
            continue;
          }
          try {
            sink.accept(values.deserialize(r.topic(), r.headers(), r.value()));
            used++;
          } catch (SerializationException e) {
            bad++;
          }
        }
        if (System.nanoTime() - lastReport > 2_000_000_000L) {
          lastReport = System.nanoTime();
          progress.printf(
              "[replay] %d / %d records (%.0f %%)%n",
              records, total, total == 0 ? 100.0 : 100.0 * records / total);
        }
      }
    }
    return new Read(records, used, bad);
  }

  private static boolean done(
      KafkaConsumer<String, byte[]> consumer,
      List<TopicPartition> partitions,
      Map<TopicPartition, Long> ends) {
    for (TopicPartition p : partitions) {
      if (consumer.position(p) < ends.get(p)) {
        return false;
      }
    }
    return true;
  }
}
