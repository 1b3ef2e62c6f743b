package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.Reconciliation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Poison records on every topic a Freshet service consumes, produced in the middle of a fetch-now
 * round: on each topic bytes that are not Confluent-format Avro, and on three of them a well-formed
 * record that fails its consumers' validation. Each lands in its topic's DLQ once per consumer of
 * the topic (fetch.completed has three: the scheduler, the content-sink, the stats-aggregator),
 * with its original key and bytes, its origin and the consumer's reason; nothing else is
 * dead-lettered, and everything else flows: every served version is stored exactly once, through
 * this round and the next.
 */
class PoisonRecordsIT {

  static final int SOURCES = 30;

  /**
   * Half a trace day per wall second, so that each 10 s between rounds brings new items (~5 trace
   * days: a dozen or more over 30 sources); at the default 1440x it is 4 trace hours, often nothing
   * new.
   */
  static final double SCALE = 43_200;

  static final String WORKER = "freshet-fetch-worker";
  static final String SINK = "freshet-content-sink";
  // learns sources from the requests and outcomes, so it meets their poison too
  static final String PUSH = "freshet-push-receiver";
  static final String SCHEDULER = "freshet-scheduler";
  static final String STATS = "freshet-stats-aggregator";

  static final String NOT_AVRO = "not Confluent-format Avro";

  static StackFixture stack;

  @BeforeAll
  static void startEverything() throws Exception {
    stack =
        StackFixture.start(
            "poison", SOURCES, DemoWebSettings.defaults().withMisbehaving(false).withScale(SCALE));
  }

  @AfterAll
  static void stopEverything() {
    if (stack != null) {
      stack.close();
    }
  }

  /**
   * A record produced as poison, and per consumer group that must reject it, what its reason says.
   */
  record Poison(
      String what, String topic, String key, byte[] value, Map<String, String> reasonByGroup) {}

  /** A poison as produced: where it is. */
  record Produced(Poison poison, int partition, long offset) {}

  @Test
  void aPoisonRecordOnEachTopicGoesToItsDlqWithItsReasonAndEverythingElseFlows() throws Exception {
    List<Poison> poisons = poisons();
    List<Produced> produced = new ArrayList<>();
    long outcomesAtPoison;
    int answeredAtPoison;
    long servedBefore;
    try (var producer = FaultTools.rawProducer(stack)) {
      producer.partitionsFor(FreshetTopics.FETCH_REQUESTED); // connected before the round
      Thread.sleep(10_000); // ~5 trace days: new items
      servedBefore = stack.servedTotal();
      int requestsBefore = stack.web.requests();
      Instant roundStart = stack.fetchNowAll();
      // Mid-round: the worker has answered a request, the rest of the round is still to come.
      Awaitility.await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(5))
          .until(() -> stack.web.requests() > requestsBefore);
      answeredAtPoison = stack.web.requests() - requestsBefore;
      List<java.util.concurrent.Future<RecordMetadata>> sends = new ArrayList<>();
      for (Poison p : poisons) {
        sends.add(
            producer.send(
                new ProducerRecord<>(
                    p.topic(), p.key().getBytes(StandardCharsets.UTF_8), p.value())));
      }
      for (int i = 0; i < poisons.size(); i++) {
        RecordMetadata m = sends.get(i).get();
        produced.add(new Produced(poisons.get(i), m.partition(), m.offset()));
      }
      outcomesAtPoison = stack.outcomesAfter(roundStart);
      stack.awaitEveryOutcomeAfter(roundStart, SOURCES, Duration.ofSeconds(180));
    }
    long servedInRound = stack.servedTotal() - servedBefore;
    // A second round: every partition the poison sat on keeps flowing.
    Thread.sleep(10_000); // ~5 trace days: new items
    long servedBeforeSecond = stack.servedTotal();
    Instant secondRound = stack.fetchNowAll();
    stack.awaitEveryOutcomeAfter(secondRound, SOURCES, Duration.ofSeconds(180));
    long servedInSecond = stack.servedTotal() - servedBeforeSecond;
    Reconciliation r = stack.awaitReconciled(Duration.ofSeconds(120));

    int expectedLetters =
        poisons.stream().mapToInt(p -> p.reasonByGroup().size()).sum(); // one per rejecting group
    Map<String, List<ConsumerRecord<byte[], byte[]>>> dlqs = new TreeMap<>();
    Awaitility.await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofSeconds(2))
        .until(
            () -> {
              dlqs.clear();
              for (String topic : consumedTopics()) {
                dlqs.putAll(FaultTools.deadLettersByTopic(stack, topic));
              }
              return dlqs.values().stream().mapToInt(List::size).sum() >= expectedLetters;
            });

    Map<String, Integer> lettersPerDlq = new TreeMap<>();
    dlqs.forEach((dlq, records) -> lettersPerDlq.put(dlq, records.size()));
    System.out.println(
        "fault poison: "
            + produced.size()
            + " poison records after "
            + answeredAtPoison
            + " demo-web responses of the round (outcomes "
            + outcomesAtPoison
            + " of "
            + SOURCES
            + " when sent), new versions served "
            + servedInRound
            + " + "
            + servedInSecond
            + " in the two rounds; dead letters "
            + lettersPerDlq
            + ": "
            + r.line());
    Map<Produced, Map<String, String>> found = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Produced p : produced) {
      Map<String, String> reasonByGroup = new TreeMap<>();
      List<ConsumerRecord<byte[], byte[]>> letters = new ArrayList<>();
      dlqs.forEach(
          (dlq, records) -> {
            if (dlq.startsWith(p.poison().topic() + Topic.DLQ_INFIX)) {
              letters.addAll(records);
            }
          });
      for (var d : letters) {
        if (!p.poison().topic().equals(FaultTools.header(d, "kafka_dlt-original-topic"))
            || partitionOf(d) != p.partition()
            || !Long.valueOf(p.offset())
                .equals(FaultTools.longHeader(d, "kafka_dlt-original-offset"))) {
          continue;
        }
        String group = FaultTools.header(d, "kafka_dlt-original-consumer-group");
        String reason = FaultTools.header(d, "kafka_dlt-exception-message");
        System.out.println("  " + p.poison().what() + " -> " + group + ": " + reason);
        if (!p.poison().key().equals(new String(d.key(), StandardCharsets.UTF_8))
            || !java.util.Arrays.equals(p.poison().value(), d.value())) {
          problems.add(p.poison().what() + " by " + group + ": not the original key and bytes");
        }
        if (reasonByGroup.put(String.valueOf(group), reason) != null) {
          problems.add(p.poison().what() + " dead-lettered twice by " + group);
        }
      }
      found.put(p, reasonByGroup);
    }
    // One writer per dead-letter topic: every letter in <topic>.dlq.<group> was written by <group>.
    dlqs.forEach(
        (dlq, records) -> {
          String owner = dlq.substring(dlq.indexOf(Topic.DLQ_INFIX) + Topic.DLQ_INFIX.length());
          for (var d : records) {
            if (!owner.equals(FaultTools.header(d, "kafka_dlt-original-consumer-group"))) {
              problems.add(
                  dlq
                      + " has a letter of "
                      + FaultTools.header(d, "kafka_dlt-original-consumer-group"));
            }
          }
        });
    assertThat(servedInRound).as("the poisoned round served new versions").isPositive();
    assertThat(servedInSecond).as("the round after it served new versions").isPositive();
    assertThat(problems).isEmpty();
    for (var e : found.entrySet()) {
      Produced p = e.getKey();
      Map<String, String> reasonByGroup = e.getValue();
      assertThat(reasonByGroup.keySet())
          .as("consumers that dead-lettered " + p.poison().what())
          .containsExactlyInAnyOrderElementsOf(p.poison().reasonByGroup().keySet());
      p.poison()
          .reasonByGroup()
          .forEach(
              (group, expected) ->
                  assertThat(reasonByGroup.get(group))
                      .as(group + "'s reason for " + p.poison().what())
                      .contains(expected));
    }
    assertThat(lettersPerDlq.values().stream().mapToInt(Integer::intValue).sum())
        .as("dead letters other than the poison records: " + lettersPerDlq)
        .isEqualTo(expectedLetters);
    assertThat(r.exact()).as(r.line()).isTrue();
  }

  private static int partitionOf(ConsumerRecord<byte[], byte[]> dlqRecord) {
    var h = dlqRecord.headers().lastHeader("kafka_dlt-original-partition");
    return h == null ? -1 : java.nio.ByteBuffer.wrap(h.value()).getInt();
  }

  private static List<String> consumedTopics() {
    return List.of(
        FreshetTopics.FETCH_REQUESTED,
        FreshetTopics.CONTENT_FETCHED,
        FreshetTopics.FETCH_COMPLETED,
        FreshetTopics.SOURCE_STATS);
  }

  /**
   * The poison records, keyed like the topic's real records (a real source's host or id), so each
   * sits on a partition that real records follow it on.
   */
  private static List<Poison> poisons() {
    var topics = FaultTools.topics(stack);
    String sourceId = stack.demoIdBySourceId.keySet().iterator().next();
    String host = stack.web.catalog().get(stack.demoIdBySourceId.get(sourceId)).host();
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<Poison> out = new ArrayList<>();

    out.add(
        new Poison(
            "not-Avro request",
            FreshetTopics.FETCH_REQUESTED,
            host,
            json("request"),
            Map.of(WORKER, NOT_AVRO, PUSH, NOT_AVRO)));
    FetchRequested unknownConnector =
        FetchRequested.newBuilder()
            .setRequestId("poison-" + UUID.randomUUID())
            .setSourceId("poison-request")
            .setTenantId(StackFixture.TENANT)
            .setConnector(Connector.unknown)
            .setUrl("http://127.0.0.1:9/poison")
            .setEpoch(1)
            .setRequestedAt(now)
            .setDueAt(now)
            .setNotAfter(now.plus(Duration.ofMinutes(5)))
            .build();
    out.add(
        new Poison(
            "request naming an unknown connector",
            FreshetTopics.FETCH_REQUESTED,
            host,
            topics
                .fetchRequested()
                .valueSerde()
                .serializer()
                .serialize(FreshetTopics.FETCH_REQUESTED, unknownConnector),
            Map.of(WORKER, "names a connector this worker does not know")));

    out.add(
        new Poison(
            "not-Avro content",
            FreshetTopics.CONTENT_FETCHED,
            sourceId,
            json("content"),
            Map.of(SINK, NOT_AVRO)));
    // A real source's id: stored by mistake, it would show as a duplicate in the reconciliation.
    ContentFetched badHash =
        ContentFetched.newBuilder()
            .setRequestId("poison-" + UUID.randomUUID())
            .setSourceId(sourceId)
            .setTenantId(StackFixture.TENANT)
            .setConnector(Connector.feed)
            .setItemId("poison-item")
            .setContentHash("not-a-sha-256")
            .setFetchedAt(now)
            .build();
    out.add(
        new Poison(
            "content with a malformed content_hash",
            FreshetTopics.CONTENT_FETCHED,
            sourceId,
            topics
                .contentFetched()
                .valueSerde()
                .serializer()
                .serialize(FreshetTopics.CONTENT_FETCHED, badHash),
            Map.of(SINK, "content_hash must be 64 lower-case hex characters")));

    Map<String, String> everyConsumer = new LinkedHashMap<>();
    everyConsumer.put(SCHEDULER, NOT_AVRO);
    everyConsumer.put(SINK, NOT_AVRO);
    everyConsumer.put(STATS, NOT_AVRO);
    everyConsumer.put(PUSH, NOT_AVRO);
    out.add(
        new Poison(
            "not-Avro outcome",
            FreshetTopics.FETCH_COMPLETED,
            sourceId,
            json("outcome"),
            everyConsumer));
    FetchCompleted unknownStatus =
        FetchCompleted.newBuilder()
            .setRequestId("poison-" + UUID.randomUUID())
            .setSourceId("poison-outcome")
            .setTenantId(StackFixture.TENANT)
            .setEpoch(1)
            .setStatus(FetchStatus.unknown)
            .setStartedAt(now)
            .setFinishedAt(now)
            .build();
    out.add(
        new Poison(
            "outcome of a newer schema's status for no source",
            FreshetTopics.FETCH_COMPLETED,
            "poison-outcome",
            topics
                .fetchCompleted()
                .valueSerde()
                .serializer()
                .serialize(FreshetTopics.FETCH_COMPLETED, unknownStatus),
            Map.of(
                SCHEDULER, "source_id 'poison-outcome' is not a UUID",
                SINK, "status is a symbol this build does not know",
                STATS, "status is a symbol this build does not know")));

    out.add(
        new Poison(
            "not-Avro stats",
            FreshetTopics.SOURCE_STATS,
            sourceId,
            json("stats"),
            Map.of(SCHEDULER, NOT_AVRO)));
    assertThat(out.stream().map(Poison::topic).distinct().toList())
        .containsExactlyInAnyOrderElementsOf(consumedTopics());
    assertThat(Set.copyOf(out.stream().flatMap(p -> p.reasonByGroup().keySet().stream()).toList()))
        .containsExactlyInAnyOrder(WORKER, SINK, SCHEDULER, STATS, PUSH);
    return out;
  }

  /** JSON where Avro belongs: the first byte is '{', not the magic byte 0. */
  private static byte[] json(String what) {
    return ("{\"poison\": \"" + what + "-" + UUID.randomUUID() + "\"}")
        .getBytes(StandardCharsets.UTF_8);
  }
}
