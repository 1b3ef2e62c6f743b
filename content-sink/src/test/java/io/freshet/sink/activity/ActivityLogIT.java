package io.freshet.sink.activity;

import static io.freshet.sink.testing.ContentEvents.completed;
import static io.freshet.sink.testing.ContentEvents.digest;
import static io.freshet.sink.testing.ContentEvents.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.sink.ingest.ContentUpserter;
import io.freshet.sink.ingest.ContentVersion;
import io.freshet.sink.ingest.UpsertPlan;
import io.freshet.sink.testing.ApiClient;
import io.freshet.sink.testing.SinkItSupport;
import io.freshet.testsupport.Infrastructure;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The activity log on the real broker and database: one row per fetch, its counts taken from the
 * request's upserts, whichever of its topics arrives first, and unchanged by redelivery.
 */
class ActivityLogIT extends SinkItSupport {

  private static final Duration WAIT = Duration.ofSeconds(120);

  @LocalServerPort int port;
  @Autowired ContentUpserter upserter;
  private ApiClient api;
  private String source;

  @BeforeEach
  void setUp() {
    api = new ApiClient(port, "it-token");
    source = "act-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static ContentFetched inRequest(ContentFetched e, String requestId) {
    return ContentFetched.newBuilder(e).setRequestId(requestId).build();
  }

  private JsonNode activityOf(String requestId) {
    var response = api.get("/sources/" + source + "/activity?limit=50");
    if (response.status() == 404) {
      return null; // nothing logged for the source yet (the outcome listener waits for company)
    }
    assertThat(response.status()).isEqualTo(200);
    for (JsonNode row : response.json().get("items")) {
      if (row.get("request_id").asString().equals(requestId)) {
        return row;
      }
    }
    return null;
  }

  private boolean isComplete(String requestId) {
    JsonNode row = activityOf(requestId);
    return row != null && row.get("complete").asBoolean();
  }

  @Test
  void aFetchRowCountsNewChangedAndDuplicateFromItsUpsertsWhicheverTopicComesFirst() {
    Instant t0 = Instant.parse("2026-11-20T10:00:00Z");
    // An earlier fetch stored x v1 and z v1.
    String r0 = source + ":r0";
    sendContent(
        List.of(inRequest(item(source, "x", 1, t0), r0), inRequest(item(source, "z", 1, t0), r0)));
    sendCompleted(
        List.of(
            completed(
                source,
                r0,
                t0,
                List.of(digest("x", 1, ItemNovelty.added), digest("z", 1, ItemNovelty.added)))));
    await().atMost(WAIT).until(() -> isComplete(r0));

    // Fetch A: its outcome arrives before its items. It emitted y v1 (new), x v2 (changed) and z
    // v1 again (a re-emitted item: duplicate), and saw w unchanged.
    Instant t1 = t0.plusSeconds(3600);
    String a = source + ":a";
    var outcomeA =
        completed(
            source,
            a,
            t1,
            List.of(
                digest("y", 1, ItemNovelty.added),
                digest("x", 2, ItemNovelty.changed),
                digest("z", 1, ItemNovelty.added),
                digest("w", 1, ItemNovelty.seen)));
    sendCompleted(List.of(outcomeA));
    await().atMost(WAIT).until(() -> activityOf(a) != null);
    JsonNode early = activityOf(a);
    assertThat(early.get("outcome_in").asBoolean()).isTrue();
    assertThat(early.get("complete").asBoolean()).isFalse();
    assertThat(early.get("items_arrived").asInt()).isZero();

    List<ContentFetched> itemsA =
        List.of(
            inRequest(item(source, "y", 1, t1), a),
            inRequest(item(source, "x", 2, t1), a),
            inRequest(item(source, "z", 1, t1), a));
    sendContent(itemsA);
    await().atMost(WAIT).until(() -> isComplete(a));
    JsonNode rowA = activityOf(a);
    assertThat(rowA.get("items_new").asInt()).isEqualTo(1);
    assertThat(rowA.get("items_changed").asInt()).isEqualTo(1);
    assertThat(rowA.get("items_duplicate").asInt()).isEqualTo(1);
    assertThat(rowA.get("items_fetched").asInt()).isEqualTo(4);
    assertThat(rowA.get("items_emitted").asInt()).isEqualTo(3);
    assertThat(rowA.get("items_unchanged").asInt()).isEqualTo(1);
    assertThat(rowA.get("status").asString()).isEqualTo("ok");
    // The cursor fetch A used is the one fetch r0 handed back.
    assertThat(rowA.get("cursor_used").get("etag").asString()).isEqualTo("\"" + r0 + "\"");

    // Fetch B: its items arrive before its outcome.
    Instant t2 = t1.plusSeconds(3600);
    String b = source + ":b";
    sendContent(List.of(inRequest(item(source, "v", 1, t2), b)));
    await().atMost(WAIT).until(() -> activityOf(b) != null);
    JsonNode beforeOutcome = activityOf(b);
    assertThat(beforeOutcome.get("outcome_in").asBoolean()).isFalse();
    assertThat(beforeOutcome.get("items_new").asInt()).isEqualTo(1);
    sendCompleted(List.of(completed(source, b, t2, List.of(digest("v", 1, ItemNovelty.added)))));
    await().atMost(WAIT).until(() -> isComplete(b));

    // Both topics redelivered (the same records again): no count moves.
    sendContent(itemsA);
    sendCompleted(List.of(outcomeA));
    String marker = source + ":after";
    sendContent(List.of(inRequest(item(source, "u", 1, t2.plusSeconds(60)), marker)));
    sendCompleted(
        List.of(
            completed(
                source, marker, t2.plusSeconds(60), List.of(digest("u", 1, ItemNovelty.added)))));
    // Records of one source share a partition, so once the later fetch is in, so are the repeats.
    await().atMost(WAIT).until(() -> isComplete(marker));
    JsonNode again = activityOf(a);
    assertThat(again.get("items_new").asInt()).isEqualTo(1);
    assertThat(again.get("items_changed").asInt()).isEqualTo(1);
    assertThat(again.get("items_duplicate").asInt()).isEqualTo(1);
    assertThat(again.get("items_arrived").asInt()).isEqualTo(3);
    // Three arrivals recorded for fetch A: y v1 and x v2 by their own rows (A inserted them), z v1
    // (stored first by r0) by an arrival row.
    long storedByA =
        jdbc.sql("SELECT count(*) FROM platform_content WHERE request_id = :r")
            .param("r", a)
            .query(Long.class)
            .single();
    long duplicateArrivals =
        jdbc.sql("SELECT count(*) FROM content_arrival WHERE request_id = :r")
            .param("r", a)
            .query(Long.class)
            .single();
    assertThat(storedByA).isEqualTo(2);
    assertThat(duplicateArrivals).isEqualTo(1);
    long logRows =
        jdbc.sql("SELECT count(*) FROM activity_log WHERE source_id = :s")
            .param("s", source)
            .query(Long.class)
            .single();
    assertThat(logRows).isEqualTo(4);
  }

  private ContentVersion version(String item, String requestId) {
    return ContentVersion.of(
        inRequest(item(source, item, 1, Instant.parse("2026-11-21T08:00:00Z")), requestId),
        Duration.ofDays(30));
  }

  /** items_new, items_changed, items_duplicate, items_arrived of the request's row. */
  private List<Integer> counts(String requestId) {
    return jdbc.sql(
            """
            SELECT items_new, items_changed, items_duplicate, items_arrived
              FROM activity_log WHERE request_id = :r
            """)
        .param("r", requestId)
        .query((rs, i) -> List.of(rs.getInt(1), rs.getInt(2), rs.getInt(3), rs.getInt(4)))
        .single();
  }

  @Test
  void aVersionSeveralRequestsEmitInOneBatchCountsOnceForEachAndNeverAgain() {
    String r1 = source + ":r1";
    String r2 = source + ":r2";
    String r3 = source + ":r3";
    // One batch (one statement): r1 stores a and b; r2 repeats a and stores c; r3 repeats a; r1
    // repeats a.
    var batch =
        UpsertPlan.of(
            List.of(
                version("a", r1),
                version("b", r1),
                version("a", r2),
                version("c", r2),
                version("a", r3),
                version("a", r1)));

    var first = upserter.upsert(batch);
    assertThat(first).isEqualTo(new ContentUpserter.Result(3, 0, 3));
    assertThat(counts(r1)).containsExactly(2, 0, 0, 2);
    assertThat(counts(r2)).containsExactly(1, 0, 1, 2);
    assertThat(counts(r3)).containsExactly(0, 0, 1, 1);

    // The same batch again, then r2's a alone, then r1's a after a new request's: only the new
    // request counts.
    var again = upserter.upsert(batch);
    assertThat(again).isEqualTo(new ContentUpserter.Result(0, 0, 6));
    upserter.upsert(UpsertPlan.of(List.of(version("a", r2))));
    String r4 = source + ":r4";
    upserter.upsert(UpsertPlan.of(List.of(version("a", r4), version("a", r1))));
    assertThat(counts(r1)).containsExactly(2, 0, 0, 2);
    assertThat(counts(r2)).containsExactly(1, 0, 1, 2);
    assertThat(counts(r3)).containsExactly(0, 0, 1, 1);
    assertThat(counts(r4)).containsExactly(0, 0, 1, 1);
    long rows =
        jdbc.sql("SELECT count(*) FROM platform_content WHERE source_id = :s")
            .param("s", source)
            .query(Long.class)
            .single();
    assertThat(rows).isEqualTo(3);
  }

  @Test
  void aPoisonOutcomeGoesToItsDlqWithItsReasonAndTheRestOfItsBatchIsRecorded() {
    Instant t = Instant.parse("2026-11-20T12:00:00Z");
    var noRequest = completed(source, source + ":x", t, List.of());
    noRequest.setRequestId(" ");
    sendCompleted(List.of(noRequest));
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    try (var raw = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
      raw.send(
          new ProducerRecord<>(
              FreshetTopics.FETCH_COMPLETED, source, "not avro".getBytes(StandardCharsets.UTF_8)));
      raw.flush();
    }
    String good = source + ":good";
    sendCompleted(List.of(completed(source, good, t, List.of())));

    await().atMost(WAIT).until(() -> isComplete(good));
    var reasons = new ArrayList<String>();
    var consumerProps = new Properties();
    consumerProps.put(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID());
    consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    try (var consumer =
        new KafkaConsumer<>(consumerProps, new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(
          List.of(Topic.dlqName(FreshetTopics.FETCH_COMPLETED, "freshet-content-sink-it")));
      await()
          .atMost(WAIT)
          .until(
              () -> {
                for (var r : consumer.poll(Duration.ofMillis(500))) {
                  if (source.equals(r.key())) {
                    reasons.add(
                        new String(
                            r.headers().lastHeader("kafka_dlt-exception-message").value(),
                            StandardCharsets.UTF_8));
                  }
                }
                return reasons.size() >= 2;
              });
    }
    assertThat(reasons)
        .anySatisfy(r -> assertThat(r).contains("request_id"))
        .anySatisfy(r -> assertThat(r).contains("magic byte"));
    long logRows =
        jdbc.sql("SELECT count(*) FROM activity_log WHERE source_id = :s")
            .param("s", source)
            .query(Long.class)
            .single();
    assertThat(logRows).isEqualTo(1);
  }
}
