package io.freshet.sink.retention;

import static io.freshet.sink.testing.ContentEvents.completed;
import static io.freshet.sink.testing.ContentEvents.digest;
import static io.freshet.sink.testing.ContentEvents.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.sink.testing.ApiClient;
import io.freshet.sink.testing.SinkItSupport;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Retention marks and cleanup on the real database: marked rows survive, expired unretained rows go
 * in bounded batches, a version the source still lists outlives the TTL counted from its first
 * fetch, and a second instance cannot run cleanup while one holds the lock.
 */
class RetentionCleanupIT extends SinkItSupport {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final long ONE_HOUR = Duration.ofHours(1).toMillis();

  @LocalServerPort int port;
  @Autowired DataSource dataSource;
  @Autowired RetentionMarks marks;

  private static ContentFetched keptFor(ContentFetched e, long retentionMs) {
    return ContentFetched.newBuilder(e).setRetention(retentionMs).build();
  }

  private List<Long> ids(String source, String titleLike) {
    return jdbc.sql(
            "SELECT id FROM platform_content WHERE source_id = :s AND title LIKE :t ORDER BY id")
        .param("s", source)
        .param("t", titleLike)
        .query(Long.class)
        .list();
  }

  @Test
  void retentionMarksSurviveCleanupWhileExpiredUnretainedRowsGoInBatches() {
    var api = new ApiClient(port, "it-token");
    String source = "ttl-" + UUID.randomUUID().toString().substring(0, 8);
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Instant longAgo = now.minus(Duration.ofDays(3));
    var events = new ArrayList<ContentFetched>();
    for (int i = 0; i < 120; i++) {
      events.add(keptFor(item(source, "old-" + i, 1, longAgo.plusSeconds(i)), ONE_HOUR));
    }
    for (int i = 0; i < 10; i++) {
      events.add(item(source, "fresh-" + i, 1, now.minusSeconds(i)));
    }
    sendContent(events);
    await().atMost(WAIT).until(() -> rows(source) == 130);

    List<Long> old = ids(source, "old-%");
    List<Long> kept = old.subList(0, 5);
    String idList = kept.stream().map(String::valueOf).collect(Collectors.joining(","));
    var marked =
        api.post(
            "/content/retention",
            "{\"content_ids\": ["
                + idList
                + "], \"reason\": \"deliverable_execution\", \"ref\": \"v-7\","
                + " \"tenant_id\": \"tenant-a\"}");
    assertThat(marked.status()).isEqualTo(200);
    assertThat(marked.json().get("marked").asInt()).isEqualTo(5);
    // marking again is harmless
    var again = marks.markContentRetained(kept, "deliverable_execution", "v-7", "tenant-a", "test");
    assertThat(again.alreadyMarked()).isEqualTo(5);

    var cleanup = api.post("/cleanup", "");
    assertThat(cleanup.status()).isEqualTo(200);
    // batch size 50 in the it profile: 50 + 50 + 15
    assertThat(cleanup.json().get("deleted").asLong()).isEqualTo(115);
    assertThat(cleanup.json().get("batches").asInt()).isEqualTo(3);
    assertThat(ids(source, "old-%")).containsExactlyElementsOf(kept);
    assertThat(ids(source, "fresh-%")).hasSize(10);
    assertThat(
            api.get("/content/" + kept.get(0))
                .json()
                .get("retained_by")
                .get(0)
                .get("ref")
                .asString())
        .isEqualTo("v-7");

    // a release names its mark: without a ref it is a 400 and releases nothing (it used to release
    // every ref of the reason, whoever had set it)
    var noRef =
        api.post(
            "/content/retention/release",
            "{\"content_ids\": ["
                + idList
                + "], \"reason\": \"deliverable_execution\", \"tenant_id\": \"tenant-a\"}");
    assertThat(noRef.status()).isEqualTo(400);
    assertThat(noRef.text()).contains("ref: must not be blank");
    // another ref of the reason is another mark: nothing released
    var otherRef =
        api.post(
            "/content/retention/release",
            "{\"content_ids\": ["
                + idList
                + "], \"reason\": \"deliverable_execution\", \"ref\": \"v-8\","
                + " \"tenant_id\": \"tenant-a\"}");
    assertThat(otherRef.json().get("released").asInt()).isZero();
    var released =
        api.post(
            "/content/retention/release",
            "{\"content_ids\": ["
                + idList
                + "], \"reason\": \"deliverable_execution\", \"ref\": \"v-7\","
                + " \"tenant_id\": \"tenant-a\"}");
    assertThat(released.json().get("released").asInt()).isEqualTo(5);
    assertThat(api.post("/cleanup", "").json().get("deleted").asLong()).isEqualTo(5);
    assertThat(ids(source, "old-%")).isEmpty();
    assertThat(ids(source, "fresh-%")).hasSize(10);
  }

  @Test
  void aVersionTheSourceStillListsIsKeptPastTheTtlOfItsFirstFetchButTheVersionItReplacedIsNot() {
    var api = new ApiClient(port, "it-token");
    String source = "listed-" + UUID.randomUUID().toString().substring(0, 8);
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Instant longAgo = now.minus(Duration.ofDays(3));
    // a v1 and b v1 three days ago, b v2 two days ago; all kept for one day.
    sendContent(
        List.of(
            keptFor(item(source, "a", 1, longAgo), Duration.ofDays(1).toMillis()),
            keptFor(item(source, "b", 1, longAgo), Duration.ofDays(1).toMillis()),
            keptFor(
                item(source, "b", 2, longAgo.plus(Duration.ofDays(1))),
                Duration.ofDays(1).toMillis())));
    await().atMost(WAIT).until(() -> rows(source) == 3);
    // A fetch a minute ago still listed a v1 and b v2 (unchanged, not emitted again).
    String request = source + ":now";
    sendCompleted(
        List.of(
            completed(
                source,
                request,
                now.minusSeconds(60),
                List.of(digest("a", 1, ItemNovelty.seen), digest("b", 2, ItemNovelty.seen)))));
    await()
        .atMost(WAIT)
        .until(
            () ->
                jdbc.sql(
                            "SELECT count(*) FROM platform_content WHERE source_id = :s AND expires_at > now()")
                        .param("s", source)
                        .query(Long.class)
                        .single()
                    == 2);

    assertThat(api.post("/cleanup", "").json().get("deleted").asLong()).isEqualTo(1);
    assertThat(ids(source, "%")).hasSize(2);
    assertThat(ids(source, "b v1")).isEmpty();
    assertThat(ids(source, "a v1")).hasSize(1);
    assertThat(ids(source, "b v2")).hasSize(1);
  }

  @Test
  void whileOneInstanceHoldsTheCleanupLockAnotherSkipsItsRun() throws Exception {
    var api = new ApiClient(port, "it-token");
    try (Connection other = dataSource.getConnection();
        var st = other.prepareStatement("SELECT pg_advisory_lock(?)")) {
      st.setLong(1, ContentLocks.CLEANUP_RUN);
      st.execute();
      var refused = api.post("/cleanup", "");
      assertThat(refused.status()).isEqualTo(409);
      assertThat(refused.json().get("errors").get(0).asString()).startsWith("cleanup:");
      try (var unlock = other.prepareStatement("SELECT pg_advisory_unlock(?)")) {
        unlock.setLong(1, ContentLocks.CLEANUP_RUN);
        unlock.execute();
      }
    }
    assertThat(api.post("/cleanup", "").status()).isEqualTo(200);
  }
}
