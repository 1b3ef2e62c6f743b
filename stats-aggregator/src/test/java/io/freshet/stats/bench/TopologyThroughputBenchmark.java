package io.freshet.stats.bench;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.stats.state.StatsSettings;
import io.freshet.stats.state.StatsUpdater;
import io.freshet.stats.testing.Outcomes;
import io.freshet.stats.topology.SourceStatsTopology;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Outcomes per second through the production topology (exactly_once_v2, RocksDB, changelog, stats
 * out) beside a plain consumer that reads and deserialises the same topic, in the same run, against
 * test-support's real broker and registry. Prints both rates and their ratio. Not a test: run
 * {@code stats-aggregator/bench/throughput-benchmark.sh [outcomes] [--sources N] [--items N]}.
 */
public final class TopologyThroughputBenchmark {

  public static void main(String[] args) throws Exception {
    int outcomes = 100_000;
    int sources = 2_000;
    int items = 10;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sources" -> sources = Integer.parseInt(args[++i]);
        case "--items" -> items = Integer.parseInt(args[++i]);
        default -> outcomes = Integer.parseInt(args[i].replace("_", ""));
      }
    }
    Infrastructure.start(EnumSet.of(Component.KAFKA, Component.REGISTRY));
    String bootstrap = Infrastructure.kafka().bootstrapServers();
    var topics =
        FreshetTopics.create(RegistrySettings.of(Infrastructure.registry().apiUrl(), true), 12);
    for (var t : topics.all()) {
      Infrastructure.kafka().createTopic(t.name(), 12, t.config());
    }

    System.err.printf(
        "producing %d outcomes (%d sources, %d items each)%n", outcomes, sources, items);
    produce(bootstrap, topics, outcomes, sources, items);

    double plain = plainConsumer(bootstrap, topics, outcomes);
    double topology = topology(bootstrap, topics, outcomes);
    System.out.printf(
        Locale.ROOT,
        "outcomes=%d sources=%d items/outcome=%d cores=%d%n"
            + "plain consumer (read + deserialise): %,.0f outcomes/s%n"
            + "topology (exactly_once_v2, state, stats out): %,.0f outcomes/s%n"
            + "ratio topology / plain: %.2f%n",
        outcomes,
        sources,
        items,
        Runtime.getRuntime().availableProcessors(),
        plain,
        topology,
        topology / plain);
    System.exit(0);
  }

  static void produce(String bootstrap, FreshetTopics topics, int n, int sources, int items) {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    var t = topics.fetchCompleted();
    Instant start = Instant.parse("2026-01-01T00:00:00Z");
    try (var producer =
        new KafkaProducer<>(props, t.keySerde().serializer(), t.valueSerde().serializer())) {
      for (int k = 0; k < n; k++) {
        int s = k % sources;
        int round = k / sources;
        String id = "bench-source-" + s;
        Instant at = start.plusSeconds(round * 3600L + s);
        List<ItemDigest> digests = new ArrayList<>();
        for (int i = 0; i < items; i++) {
          int item = round - i;
          digests.add(
              Outcomes.published(
                  id + "-" + item,
                  i == 0 ? ItemNovelty.added : ItemNovelty.seen,
                  at.minusSeconds(600 + i * 3600L)));
        }
        FetchCompleted o =
            Outcomes.outcome(id, at)
                .status(k % 23 == 0 ? FetchStatus.not_modified : FetchStatus.ok)
                .items(k % 23 == 0 ? List.of() : digests)
                .build();
        producer.send(new ProducerRecord<>(t.name(), id, o));
      }
      producer.flush();
    }
  }

  static double plainConsumer(String bootstrap, FreshetTopics topics, int n) {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    var t = topics.fetchCompleted();
    var values = t.valueSerde().deserializer();
    long t0 = System.nanoTime();
    long read = 0;
    long checksum = 0;
    try (var consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (var p : consumer.partitionsFor(t.name())) {
        parts.add(new TopicPartition(p.topic(), p.partition()));
      }
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      while (read < n) {
        for (var r : consumer.poll(Duration.ofMillis(500))) {
          FetchCompleted o = values.deserialize(r.topic(), r.headers(), r.value());
          checksum += o.getItems().size();
          read++;
        }
      }
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    System.err.printf(
        Locale.ROOT, "plain consumer: %d outcomes (%d items) in %.2f s%n", read, checksum, seconds);
    return read / seconds;
  }

  static double topology(String bootstrap, FreshetTopics topics, int n) throws Exception {
    var props = new Properties();
    String appId = "bench-" + System.nanoTime();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
    Infrastructure.kafka().createTopic(topics.fetchCompleted().dlqName(appId), 12, Map.of());
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
    props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createTempDirectory("stats-bench").toString());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    var topology =
        SourceStatsTopology.build(
            topics,
            new StatsUpdater(StatsSettings.defaults(), Clock.systemUTC()),
            props.getProperty(StreamsConfig.APPLICATION_ID_CONFIG));
    try (var streams = new KafkaStreams(topology, props);
        var admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      long t0 = System.nanoTime();
      streams.start();
      long running = 0;
      while (true) {
        if (running == 0 && streams.state() == KafkaStreams.State.RUNNING) {
          running = System.nanoTime();
        }
        Map<TopicPartition, Long> committed = new HashMap<>();
        admin
            .listConsumerGroupOffsets(appId)
            .partitionsToOffsetAndMetadata()
            .get()
            .forEach((p, o) -> committed.put(p, o == null ? 0 : o.offset()));
        long done = committed.values().stream().mapToLong(Long::longValue).sum();
        if (done >= n) {
          break;
        }
        Thread.sleep(200);
      }
      double seconds = (System.nanoTime() - (running == 0 ? t0 : running)) / 1e9;
      System.err.printf(
          Locale.ROOT,
          "topology: %d outcomes committed in %.2f s after RUNNING (%.2f s start-up)%n",
          n,
          seconds,
          ((running == 0 ? t0 : running) - t0) / 1e9);
      return n / seconds;
    }
  }
}
