package io.freshet.cadence.replay;

import io.freshet.schemas.topic.Topic;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a recorded topic from a point in time to its current end with a consumer that belongs to no
 * group: partitions are assigned, positions found with {@code offsetsForTimes}, and nothing is
 * committed, so the live application's offsets and group are untouched.
 */
final class OutcomeReader {

  private final Properties config;
  private final PrintStream progress;

  OutcomeReader(String bootstrap, PrintStream progress) {
    this.config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
    config.put(ConsumerConfig.CLIENT_ID_CONFIG, "freshet-replay");
    this.progress = progress;
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
      List<TopicPartition> partitions =
          consumer.partitionsFor(topic.name(), Duration.ofSeconds(30)).stream()
              .map(p -> new TopicPartition(p.topic(), p.partition()))
              .toList();
      if (partitions.isEmpty()) {
        throw new IllegalArgumentException("topic " + topic.name() + " does not exist");
      }
      consumer.assign(partitions);
      Map<TopicPartition, Long> query = new HashMap<>();
      partitions.forEach(p -> query.put(p, from.toEpochMilli()));
      var starts = consumer.offsetsForTimes(query, Duration.ofSeconds(30));
      Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(30));
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
