package io.freshet.sink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.sink.testing.ContentEvents;
import io.freshet.sink.testing.SinkItSupport;
import io.freshet.testsupport.Infrastructure;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;

/**
 * The sink on the real broker, registry and PostgreSQL. Each test writes its own sources (a random
 * prefix), so the tests share one topic and one table without seeing each other's rows.
 */
class ContentSinkIT extends SinkItSupport {

  private static final Duration WAIT = Duration.ofSeconds(180);
  private static KafkaProducer<String, byte[]> rawProducer;

  @Autowired KafkaListenerEndpointRegistry listeners;
  @Autowired io.micrometer.core.instrument.MeterRegistry meters;

  @BeforeAll
  static void producers() {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    rawProducer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
  }

  @AfterAll
  static void closeRawProducer() {
    rawProducer.close();
  }

  private void send(List<ContentFetched> events) {
    sendContent(events);
  }

  /**
   * A stream of {@code total} events over {@code sources} sources: 75 % first versions, 5 % changed
   * versions (each a second version of an item sent before it) and 20 % duplicates of versions
   * already sent. Returns the events in send order and the number of distinct versions.
   */
  private static Stream10k stream(String prefix, int total, int sources, long seed) {
    var random = new Random(seed);
    var events = new ArrayList<ContentFetched>(total);
    var sent = new ArrayList<ContentFetched>();
    Map<String, Integer> versions = new HashMap<>();
    Instant t = Instant.parse("2026-11-01T00:00:00Z");
    int firsts = total * 75 / 100;
    int changed = total * 5 / 100;
    int distinct = 0;
    for (int i = 0; i < firsts; i++) {
      var e = ContentEvents.item(prefix + (i % sources), "item-" + i, 1, t.plusMillis(i));
      events.add(e);
      sent.add(e);
      versions.put(e.getSourceId() + "/" + e.getItemId(), 1);
      distinct++;
    }
    int duplicates = total - firsts - changed;
    int c = 0;
    int d = 0;
    while (c < changed || d < duplicates) {
      boolean change = d >= duplicates || (c < changed && random.nextInt(5) == 0);
      Instant at = t.plusSeconds(3600).plusMillis(events.size());
      if (change) {
        int i = random.nextInt(firsts);
        String source = prefix + (i % sources);
        String key = source + "/item-" + i;
        if (versions.get(key) != 1) {
          continue; // one change per item keeps the arithmetic plain
        }
        versions.put(key, 2);
        var e = ContentEvents.item(source, "item-" + i, 2, at);
        events.add(e);
        sent.add(e);
        distinct++;
        c++;
      } else {
        var original = sent.get(random.nextInt(sent.size()));
        var copy = ContentFetched.newBuilder(original).setFetchedAt(at).build();
        events.add(copy);
        d++;
      }
    }
    return new Stream10k(events, distinct, changed);
  }

  private record Stream10k(List<ContentFetched> events, int distinct, int changed) {}

  @Test
  void tenThousandItemsWithDuplicatesAndChangesBecomeExactlyTheDistinctVersionsLinked()
      throws Exception {
    String prefix = "bulk-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    var stream = stream(prefix, 10_000, 50, 42);

    send(stream.events());

    await().atMost(WAIT).until(() -> rows(prefix) == stream.distinct());
    assertThat(stream.distinct()).isEqualTo(8_000);
    long linked =
        jdbc.sql(
                """
                SELECT count(*) FROM platform_content v
                  JOIN platform_content p ON p.id = v.version_of
                 WHERE v.source_id LIKE :p AND p.source_id = v.source_id
                   AND p.item_id = v.item_id AND v.title LIKE '% v2' AND p.title LIKE '% v1'
                """)
            .param("p", prefix + "%")
            .query(Long.class)
            .single();
    assertThat(linked).isEqualTo(stream.changed());
    long firstsLinked =
        jdbc.sql(
                "SELECT count(*) FROM platform_content WHERE source_id LIKE :p"
                    + " AND version_of IS NOT NULL AND title LIKE '% v1'")
            .param("p", prefix + "%")
            .query(Long.class)
            .single();
    assertThat(firstsLinked).isZero();

    // Replay the whole topic from the beginning: nothing new may appear. Every listener of the
    // group stops, so that its offsets can be moved.
    listeners.getListenerContainers().forEach(c -> c.stop());
    try (Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                Infrastructure.kafka().bootstrapServers()))) {
      var partitions =
          admin
              .describeTopics(List.of(FreshetTopics.CONTENT_FETCHED))
              .allTopicNames()
              .get()
              .get(FreshetTopics.CONTENT_FETCHED)
              .partitions();
      Map<TopicPartition, OffsetAndMetadata> zero = new HashMap<>();
      Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
      for (var p : partitions) {
        var tp = new TopicPartition(FreshetTopics.CONTENT_FETCHED, p.partition());
        zero.put(tp, new OffsetAndMetadata(0));
        latest.put(tp, OffsetSpec.latest());
      }
      admin.alterConsumerGroupOffsets("freshet-content-sink-it", zero).all().get();
      listeners.getListenerContainers().forEach(c -> c.start());
      var ends = admin.listOffsets(latest).all().get();
      await()
          .atMost(WAIT)
          .until(
              () -> {
                var committed =
                    admin
                        .listConsumerGroupOffsets("freshet-content-sink-it")
                        .partitionsToOffsetAndMetadata()
                        .get();
                return ends.entrySet().stream()
                    .allMatch(
                        e ->
                            committed.get(e.getKey()) != null
                                && committed.get(e.getKey()).offset() >= e.getValue().offset());
              });
    }
    assertThat(rows(prefix)).isEqualTo(stream.distinct());
    System.out.printf(
        "replay reconciliation: sent %d events, distinct versions %d, stored %d, duplicates 0,"
            + " lost %d%n",
        stream.events().size(), stream.distinct(), rows(prefix), stream.distinct() - rows(prefix));
  }

  @Test
  void aPoisonRecordGoesToTheDlqWithItsReasonAndTheRestOfItsBatchIsStored() {
    String prefix = "poison-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    Instant t = Instant.parse("2026-11-02T00:00:00Z");
    var badHash = ContentEvents.item(prefix + "0", "bad", 1, t);
    badHash.setContentHash("XYZ");
    send(List.of(ContentEvents.item(prefix + "0", "a", 1, t), badHash));
    rawProducer.send(
        new ProducerRecord<>(
            FreshetTopics.CONTENT_FETCHED,
            prefix + "0",
            "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8)));
    rawProducer.flush();
    send(List.of(ContentEvents.item(prefix + "0", "b", 1, t.plusSeconds(1))));

    await().atMost(WAIT).until(() -> rows(prefix) == 2);
    var reasons = new ArrayList<String>();
    var groups = new ArrayList<String>();
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (var consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(
          List.of(Topic.dlqName(FreshetTopics.CONTENT_FETCHED, "freshet-content-sink-it")));
      await()
          .atMost(WAIT)
          .until(
              () -> {
                for (var r : consumer.poll(Duration.ofMillis(500))) {
                  if (new String(r.key(), StandardCharsets.UTF_8).equals(prefix + "0")) {
                    var h = r.headers().lastHeader("kafka_dlt-exception-message");
                    reasons.add(new String(h.value(), StandardCharsets.UTF_8));
                    groups.add(
                        new String(
                            r.headers().lastHeader("kafka_dlt-original-consumer-group").value(),
                            StandardCharsets.UTF_8));
                  }
                }
                return reasons.size() >= 2;
              });
    }
    assertThat(reasons)
        .anySatisfy(r -> assertThat(r).contains("content_hash"))
        .anySatisfy(r -> assertThat(r).contains("magic byte"));
    assertThat(groups).as("which consumer rejected them").containsOnly("freshet-content-sink-it");
    // Kafka client metrics on the service's own factories: the listeners' lag, the DLQ's sends
    assertThat(meters.find("kafka.consumer.fetch.manager.records.lag.max").meters()).isNotEmpty();
    assertThat(meters.find("kafka.producer.record.send.total").meters()).isNotEmpty();
  }

  @Test
  void whatPostgresCannotHoldIsReplacedOrRefusedAndHoldsNothingUp() {
    // PostgreSQL's text and jsonb cannot hold U+0000, and a unique-index entry cannot pass 2,704
    // bytes; stored as it came, such a record would fail its batch on every retry and stall the
    // partition.
    String prefix = "nul-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    Instant t = Instant.parse("2026-11-03T00:00:00Z");
    var nul = ContentEvents.item(prefix + "0", "item\u0000one", 1, t);
    nul.setTitle("a\u0000title");
    nul.setBody("body \u0000 with a NUL");
    nul.setMetadata(Map.of("author\u0000", "x\u0000y"));
    String source = prefix + "0";
    var random = new Random(7);
    String longest =
        random
            .ints(ContentVersion.MAX_KEY_BYTES - source.length(), 'a', 'z' + 1)
            .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
            .toString(); // random letters: no compression makes it fit
    send(
        List.of(
            nul,
            ContentEvents.item(source, "plain", 1, t),
            ContentEvents.item(source, longest, 1, t),
            ContentEvents.item(source, longest + "x", 1, t)));
    send(List.of(ContentEvents.item(source, "after", 1, t.plusSeconds(1))));

    await().atMost(WAIT).until(() -> rows(prefix) == 4);
    assertThat(
            jdbc.sql("SELECT count(*) FROM platform_content WHERE source_id = :s AND item_id = :i")
                .param("s", source)
                .param("i", longest)
                .query(Long.class)
                .single())
        .as("the longest key that fits")
        .isOne();
    var stored =
        jdbc.sql(
                "SELECT item_id, title, body, metadata::text AS metadata FROM platform_content"
                    + " WHERE source_id = :s AND item_id LIKE 'item%'")
            .param("s", prefix + "0")
            .query()
            .singleRow();
    assertThat(stored)
        .containsEntry("item_id", "item\uFFFDone")
        .containsEntry("title", "a\uFFFDtitle")
        .containsEntry("body", "body \uFFFD with a NUL")
        .containsEntry("metadata", "{\"author\uFFFD\": \"x\uFFFDy\"}");
  }

  @Test
  void postgresStoppedForThirtySecondsMidStreamLosesNothingAndStoresNothingTwice()
      throws Exception {
    String prefix = "outage-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    var stream = stream(prefix, 3_000, 20, 7);
    var events = stream.events();
    int half = events.size() / 2;
    send(events.subList(0, half));
    await().atMost(WAIT).until(() -> rows(prefix) > 0);

    Infrastructure.postgres().stop();
    try {
      // The rest of the stream arrives while the database is down.
      send(events.subList(half, events.size()));
      Thread.sleep(30_000);
    } finally {
      Infrastructure.postgres().restart();
    }

    await().atMost(WAIT).until(() -> rows(prefix) == stream.distinct());
    long distinctKeys =
        jdbc.sql(
                "SELECT count(DISTINCT (source_id, item_id, content_hash)) FROM platform_content"
                    + " WHERE source_id LIKE :p")
            .param("p", prefix + "%")
            .query(Long.class)
            .single();
    long stored = rows(prefix);
    System.out.printf(
        "postgres outage reconciliation: published %d, stored %d, duplicates %d, lost %d%n",
        stream.distinct(), stored, stored - distinctKeys, stream.distinct() - distinctKeys);
    assertThat(stored).isEqualTo(distinctKeys).isEqualTo(stream.distinct());
  }

  @Test
  void twoSinkInstancesInOneGroupStoreEachVersionOnce() throws Exception {
    String prefix = "pair-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    var stream = stream(prefix, 4_000, 40, 11);
    // The second instance is a separate process: the service's own executable jar.
    Path jar =
        Files.list(Path.of("target"))
            .filter(f -> f.getFileName().toString().endsWith("-exec.jar"))
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("run through Maven: needs the exec jar"));
    String java = ProcessHandle.current().info().command().orElse("java");
    Process second =
        new ProcessBuilder(
                java,
                "-jar",
                jar.toString(),
                "--server.port=0",
                "--spring.datasource.url=" + Infrastructure.postgres().jdbcUrl(database()),
                "--spring.datasource.username=" + Infrastructure.postgres().username(),
                "--spring.datasource.password=" + Infrastructure.postgres().password(),
                "--spring.kafka.bootstrap-servers=" + Infrastructure.kafka().bootstrapServers(),
                "--spring.kafka.consumer.group-id=freshet-content-sink-it",
                "--freshet.kafka.registry-url=" + System.getProperty("freshet.registry.url"),
                "--freshet.kafka.partitions=4",
                "--freshet.api.token=it-token",
                "--freshet.cleanup.enabled=false")
            .redirectErrorStream(true)
            .redirectOutput(Path.of("target", "second-sink.log").toFile())
            .start();
    try {
      var mine = listeners.getListenerContainer("content-fetched");
      // The other instance has joined and taken part of the topic before anything is sent.
      await()
          .atMost(WAIT)
          .until(
              () ->
                  nonEmpty(mine.getAssignedPartitions())
                      && mine.getAssignedPartitions().size() < 4);
      send(stream.events());
      await().atMost(WAIT).until(() -> rows(prefix) == stream.distinct());
    } finally {
      second.destroy();
      second.waitFor(30, TimeUnit.SECONDS);
      second.destroyForcibly();
    }
    assertThat(rows(prefix)).isEqualTo(stream.distinct());
  }

  private static boolean nonEmpty(Collection<?> c) {
    return c != null && !c.isEmpty();
  }
}
