package io.freshet.cadence.replay;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.KafkaFixture;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A recorded history for the *IT tests: the real topics with the registry serde, outcomes written
 * as the fetch-worker writes them (record time = the fetch's {@code finished_at}), and small
 * builders of outcomes and item digests.
 */
final class Recording {

  static final int PARTITIONS = 3;
  private static final AtomicLong REQUESTS = new AtomicLong();

  final FreshetTopics topics;
  private final KafkaFixture kafka;

  Recording(KafkaFixture kafka) {
    this.kafka = kafka;
    this.topics =
        FreshetTopics.create(
            RegistrySettings.of(System.getProperty("freshet.registry.url"), true), PARTITIONS);
    for (var t : topics.all()) {
      kafka.createTopic(t.name(), PARTITIONS, t.config());
    }
  }

  /** Writes every outcome keyed by its source, record time = its {@code finished_at}. */
  void send(List<FetchCompleted> outcomes) {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    var t = topics.fetchCompleted();
    try (var producer =
        new KafkaProducer<>(props, t.keySerde().serializer(), t.valueSerde().serializer())) {
      for (FetchCompleted o : outcomes) {
        producer.send(
            new ProducerRecord<>(
                t.name(), null, o.getFinishedAt().toEpochMilli(), o.getSourceId(), o));
      }
      producer.flush();
    }
  }

  /** A content hash (64 hex digits) derived from {@code name}. */
  static String hash(String name) {
    long h = name.hashCode() * 0x9E3779B97F4A7C15L;
    String head = HexFormat.of().toHexDigits(h) + HexFormat.of().toHexDigits(~h);
    return head + head;
  }

  static ItemDigest item(String name, ItemNovelty novelty) {
    return ItemDigest.newBuilder()
        .setItemId(name)
        .setContentHash(hash(name))
        .setNovelty(novelty)
        .build();
  }

  static ItemDigest seen(String name) {
    return item(name, ItemNovelty.seen);
  }

  static ItemDigest published(String name, ItemNovelty novelty, Instant at) {
    ItemDigest d = item(name, novelty);
    d.setPublishedAt(at);
    return d;
  }

  /** One fetch of {@code sourceId} that ended at {@code finishedAt}, {@code ok} unless told. */
  static FetchCompleted outcome(
      String sourceId, Instant finishedAt, FetchStatus status, List<ItemDigest> items) {
    return FetchCompleted.newBuilder()
        .setRequestId("req-" + REQUESTS.incrementAndGet())
        .setSourceId(sourceId)
        .setEpoch(1)
        .setStatus(status)
        .setStartedAt(finishedAt.minusMillis(500))
        .setFinishedAt(finishedAt)
        .setItemCount((int) items.stream().filter(i -> i.getNovelty() != ItemNovelty.seen).count())
        .setItems(new ArrayList<>(items))
        .setErrorKind(status == FetchStatus.failed ? "timeout" : null)
        .build();
  }
}
