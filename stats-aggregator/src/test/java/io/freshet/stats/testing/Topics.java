package io.freshet.stats.testing;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.KafkaFixture;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/** The real topics of an *IT, with the registry serde; a producer of outcomes, a stats reader. */
public final class Topics {

  public static final int PARTITIONS = 3;

  public final FreshetTopics topics;
  private final KafkaFixture kafka;

  public Topics(KafkaFixture kafka) {
    this.kafka = kafka;
    this.topics =
        FreshetTopics.create(
            RegistrySettings.of(System.getProperty("freshet.registry.url"), true), PARTITIONS);
    for (var t : topics.all()) {
      kafka.createTopic(t.name(), PARTITIONS, t.config());
    }
  }

  /** Sends every outcome (keyed by its source), in order, and waits for the acks. */
  public void send(List<FetchCompleted> outcomes) {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    var completed = topics.fetchCompleted();
    try (var producer =
        new KafkaProducer<>(
            props, completed.keySerde().serializer(), completed.valueSerde().serializer())) {
      for (FetchCompleted o : outcomes) {
        producer.send(new ProducerRecord<>(completed.name(), o.getSourceId(), o));
      }
      producer.flush();
    }
  }

  /** Sends raw bytes under {@code key} to the completed topic. */
  public void sendRaw(String key, byte[] value) {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer =
        new KafkaProducer<>(
            props,
            new org.apache.kafka.common.serialization.StringSerializer(),
            new org.apache.kafka.common.serialization.ByteArraySerializer())) {
      producer.send(new ProducerRecord<>(topics.fetchCompleted().name(), key, value));
      producer.flush();
    }
  }

  /** Every committed stats record of {@code ids} on the stats topic so far, per source in order. */
  public Map<String, List<SourceStats>> readStats(java.util.Collection<String> ids) {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    var stats = topics.sourceStats();
    Map<String, List<SourceStats>> out = new HashMap<>();
    try (KafkaConsumer<String, SourceStats> consumer =
        new KafkaConsumer<>(
            props, stats.keySerde().deserializer(), stats.valueSerde().deserializer())) {
      consumer.subscribe(List.of(stats.name()));
      int idle = 0;
      while (idle < 3) {
        var records = consumer.poll(Duration.ofMillis(500));
        if (records.isEmpty() && !consumer.assignment().isEmpty()) {
          idle++;
        }
        for (var r : records) {
          if (ids.contains(r.key())) {
            out.computeIfAbsent(r.key(), k -> new java.util.ArrayList<>()).add(r.value());
          }
        }
      }
    }
    return out;
  }
}
