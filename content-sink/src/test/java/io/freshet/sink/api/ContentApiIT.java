package io.freshet.sink.api;

import static io.freshet.sink.testing.ContentEvents.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.SignalType;
import io.freshet.sink.testing.ApiClient;
import io.freshet.sink.testing.SinkItSupport;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** The read API on the real database, with content stored through the real broker. */
@ExtendWith(OutputCaptureExtension.class)
class ContentApiIT extends SinkItSupport {

  private static final Duration WAIT = Duration.ofSeconds(120);

  @LocalServerPort int port;
  private ApiClient api;
  private String source;

  @BeforeEach
  void setUp() {
    api = new ApiClient(port, "it-token");
    source = "api-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private long idOf(String item, int version) {
    return jdbc.sql(
            "SELECT id FROM platform_content WHERE source_id = :s AND item_id = :i"
                + " AND title = :t")
        .param("s", source)
        .param("i", item)
        .param("t", item + " v" + version)
        .query(Long.class)
        .single();
  }

  private static String message(ApiClient.Response r) {
    return r.json().path("errors").path(0).asString();
  }

  @Test
  void aSourcesContentPagesForwardByKeysetAndTheVersionsOfAnItemAreLinked() {
    Instant t = Instant.parse("2026-11-21T00:00:00Z");
    var events = new ArrayList<ContentFetched>();
    for (int i = 0; i < 25; i++) {
      events.add(item(source, "item-" + i, 1, t.plusSeconds(i)));
    }
    events.add(item(source, "item-0", 2, t.plusSeconds(100)));
    sendContent(events);
    await().atMost(WAIT).until(() -> rows(source) == 26);

    var seen = new ArrayList<String>();
    String cursor = "";
    int pages = 0;
    do {
      var page =
          api.get(
              "/sources/" + source + "/content?limit=10&to=2026-11-21T00:01:00Z&cursor=" + cursor);
      assertThat(page.status()).isEqualTo(200);
      page.json().get("items").forEach(row -> seen.add(row.get("item_id").asString()));
      JsonNode next = page.json().get("next_cursor");
      cursor = next == null || next.isNull() ? null : next.asString();
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(3);
    // the window [.., 00:01) leaves out v2 of item-0 (fetched at +100 s)
    assertThat(seen).hasSize(25).doesNotHaveDuplicates().startsWith("item-0", "item-1");

    var versions = api.get("/content/" + idOf("item-0", 2) + "/versions");
    assertThat(versions.status()).isEqualTo(200);
    assertThat(versions.json().size()).isEqualTo(2);
    assertThat(versions.json().get(1).get("version_of").asLong()).isEqualTo(idOf("item-0", 1));

    var byTenant =
        api.get(
            "/tenants/tenant-a/content?signal_type="
                + SignalType.informative
                + "&from=2026-11-21T00:00:00Z&to=2026-11-21T00:00:03Z&limit=1000");
    assertThat(byTenant.status()).isEqualTo(200);
    assertThat(byTenant.json().get("items").size()).isGreaterThanOrEqualTo(3);

    var docs = api.get("/v3/api-docs");
    assertThat(docs.json().get("paths").has("/sources/{sourceId}/content")).isTrue();
    // the caller's key is the principal, not a parameter a client sends
    assertThat(docs.text()).doesNotContain("\"caller\"").doesNotContain("KeyPrincipal");
    assertThat(docs.text()).contains("tenant_id");
  }

  @Test
  void badInputIsRefusedNamingTheFieldAndUnknownIdsAreNotFound() {
    sendContent(List.of(item(source, "a", 1, Instant.parse("2026-11-21T00:00:00Z"))));
    await().atMost(WAIT).until(() -> rows(source) == 1);
    long id = idOf("a", 1);

    var unknown = api.get("/content/987654321987");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(message(unknown)).startsWith("id:");
    assertThat(api.get("/content/987654321987/versions").status()).isEqualTo(404);
    var notANumber = api.get("/content/abc");
    assertThat(notANumber.status()).isEqualTo(400);
    assertThat(message(notANumber)).startsWith("id:");

    assertThat(message(api.get("/sources/" + source + "/content?from=yesterday")))
        .startsWith("from:");
    assertThat(message(api.get("/sources/" + source + "/content?limit=0"))).startsWith("limit:");
    assertThat(message(api.get("/sources/" + source + "/content?cursor=garbage!")))
        .startsWith("cursor:");
    var noSignal = api.get("/tenants/tenant-a/content");
    assertThat(noSignal.status()).isEqualTo(400);
    assertThat(message(noSignal)).startsWith("signal_type:");
    assertThat(message(api.get("/tenants/tenant-a/content?signal_type=urgent")))
        .startsWith("signal_type:");

    var badId = api.post("/content/retention", "{\"content_ids\": [\"x\"], \"reason\": \"r\"}");
    assertThat(badId.status()).isEqualTo(400);
    assertThat(message(badId)).startsWith("content_ids[0]");
    var unknownField = api.post("/content/retention", "{\"content_id\": [1], \"reason\": \"r\"}");
    assertThat(unknownField.status()).isEqualTo(400);
    assertThat(message(unknownField)).startsWith("content_id: unknown field");
    var broken = api.post("/content/retention", "{\"content_ids\": [1,");
    assertThat(broken.status()).isEqualTo(400);
    assertThat(message(broken)).startsWith("body: not valid JSON");
    var noReason = api.post("/content/retention", "{\"content_ids\": [" + id + "]}");
    assertThat(noReason.status()).isEqualTo(400);
    assertThat(message(noReason)).startsWith("reason:");
    var empty = api.post("/content/retention", "{\"content_ids\": [], \"reason\": \"r\"}");
    assertThat(message(empty)).startsWith("content_ids:");

    // A mark naming a known and a missing id: a clear 404 naming the missing one, nothing marked.
    var partlyMissing =
        api.post(
            "/content/retention",
            "{\"content_ids\": ["
                + id
                + ", 987654321987], \"reason\": \"tp_session\", \"ref\": \"s-1\","
                + " \"tenant_id\": \"tenant-a\"}");
    assertThat(partlyMissing.status()).isEqualTo(404);
    assertThat(message(partlyMissing)).contains("987654321987").contains("nothing was changed");
    assertThat(
            jdbc.sql("SELECT count(*) FROM content_retention WHERE content_id = :id")
                .param("id", id)
                .query(Long.class)
                .single())
        .isZero();
    assertThat(api.get("/content/" + id).json().get("retained_by").size()).isZero();

    var anonymous =
        api.postAnonymously(
            "/content/retention", "{\"content_ids\": [" + id + "], \"reason\": \"r\"}");
    assertThat(anonymous.status()).isEqualTo(401);
    assertThat(
            jdbc.sql("SELECT count(*) FROM content_retention WHERE content_id = :id")
                .param("id", id)
                .query(Long.class)
                .single())
        .isZero();
  }

  /**
   * Every read needs a key: without one, or with one the sink does not know, each read is a 401
   * problem and shows nothing stored (the reads were open to anyone before).
   */
  @Test
  void readsWithoutAValidKeyAre401AndShowNothing() {
    sendContent(List.of(item(source, "guarded", 1, Instant.parse("2026-11-21T00:00:00Z"))));
    await().atMost(WAIT).until(() -> rows(source) == 1);
    long id = idOf("guarded", 1);
    for (String path :
        new String[] {
          "/tenants/tenant-a/content?signal_type=event",
          "/sources/" + source + "/content",
          "/sources/" + source + "/activity",
          "/content/" + id,
          "/content/" + id + "/versions"
        }) {
      assertThat(api.get(path).status()).as(path + " with the key").isIn(200, 404);
      for (String auth :
          new String[] {null, "Bearer nope", "Bearer ", "Basic aXQtdG9rZW4=", "Bearer it-token2"}) {
        var r = api.getAs(path, auth);
        assertThat(r.status()).as(path + " with " + auth).isEqualTo(401);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.text()).doesNotContain("guarded");
      }
    }
  }

  /**
   * What a client can send wrong is a 4xx problem naming what is wrong — never a 500 with a stack
   * trace in the log: tampered cursors, instants PostgreSQL cannot hold, NUL and invalid UTF-8 in
   * parameters, a request line over the container's limit, sources and tenants never seen.
   */
  @Test
  void clientCausedErrorsAreProblemsNeverServerErrors(CapturedOutput output) {
    sendContent(List.of(item(source, "a", 1, Instant.parse("2026-11-21T00:00:00Z"))));
    await().atMost(WAIT).until(() -> rows(source) == 1);
    int logStart = output.length();
    String content = "/sources/" + source + "/content";
    String activity = "/sources/" + source + "/activity";
    String sqlish = b64("1|1700000000000000|1 OR 1=1");
    String nulKey = b64("1|1700000000000000|a" + (char) 0 + "b");
    String digits = "9".repeat(5000);
    String farMicros = b64("1|" + Long.MAX_VALUE + "|1");
    String longKey = b64("1|1700000000000000|" + digits);

    var soft = new SoftAssertions();
    expect(soft, content + "?cursor=" + sqlish, 400, "cursor:");
    expect(soft, content + "?cursor=" + enc("1|1700000000000000|1 OR 1=1"), 400, "cursor:");
    expect(soft, activity + "?cursor=" + nulKey, 400, "cursor:");
    expect(soft, content + "?cursor=" + nulKey, 400, "cursor:");
    expect(soft, content + "?cursor=a%00b", 400, "cursor:");
    expect(soft, content + "?cursor=" + digits, 400, "cursor:");
    expect(soft, content + "?cursor=" + longKey, 400, "cursor:");
    expect(soft, activity + "?cursor=" + longKey, 400, "cursor:");
    expect(soft, content + "?cursor=" + farMicros, 400, "cursor:");
    expect(soft, content + "?from=" + enc("+999999999-12-31T23:59:59Z"), 400, "from:");
    expect(soft, content + "?to=" + enc("-999999999-01-01T00:00:00Z"), 400, "to:");
    expect(
        soft,
        "/tenants/tenant-a/content?signal_type=event&from=" + enc("+999999999-12-31T23:59:59Z"),
        400,
        "from:");
    expect(soft, content + "?from=2026%00", 400, "from:");
    expect(soft, "/tenants/tenant-a/content?signal_type=ev%00ent", 400, "signal_type:");
    expect(soft, content + "?cursor=%FF", 400, "cursor:");
    expect(soft, "/tenants/tenant-a/content?signal_type=%FF", 400, null);
    expect(soft, content + "?from=" + "x".repeat(20_000), 431, null, 414, 400);
    expect(soft, "/sources/never-seen-" + source + "/content", 404, "sourceId:");
    expect(soft, "/sources/never-seen-" + source + "/activity", 404, "sourceId:");
    expect(soft, "/tenants/never-seen-" + source + "/content?signal_type=event", 404, "tenantId:");
    expect(soft, "/content/99999999999999999999999", 400, "id:");
    expect(soft, "/no/such/path", 404, null);

    // a body over freshet.web.max-body-bytes (1 MiB) is refused while it is read
    var huge =
        api.post(
            "/content/retention",
            "{\"content_ids\": [1], \"reason\": \"" + "r".repeat(1_100_000) + "\"}");
    soft.assertThat(huge.status()).as("huge body -> " + huge.text()).isEqualTo(413);
    soft.assertThat(huge.contentType()).startsWith("application/problem+json");
    soft.assertThat(message(huge)).isEqualTo("body: larger than the limit of 1 MiB");

    String log = output.toString().substring(logStart);
    soft.assertThat(log)
        .as("log during bad requests")
        .doesNotContain("\tat ")
        .doesNotContain("ERROR");
    soft.assertAll();

    // a source's content and activity that exist are still 200 (the sink has seen the source)
    assertThat(api.get(content).status()).isEqualTo(200);
    assertThat(api.get(activity).status()).isEqualTo(200);
    var emptyWindow = api.get(content + "?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z");
    assertThat(emptyWindow.status()).isEqualTo(200);
    assertThat(emptyWindow.json().get("items").size()).isZero();
  }

  private void expect(SoftAssertions soft, String path, int status, String prefix, int... alsoOk) {
    var r = api.get(path);
    String what = path.length() > 120 ? path.substring(0, 120) + "..." : path;
    var statuses = new ArrayList<Integer>(List.of(status));
    for (int s : alsoOk) {
      statuses.add(s);
    }
    soft.assertThat(r.status()).as(what + " -> " + r.text()).isIn(statuses);
    soft.assertThat(r.contentType())
        .as(what + " content type")
        .startsWith("application/problem+json");
    if (r.json() == null) {
      soft.fail(what + ": body is not JSON: " + r.text());
      return;
    }
    soft.assertThat(r.json().path("status").asInt())
        .as(what + " status field")
        .isEqualTo(r.status());
    soft.assertThat(r.json().has("title")).as(what + " title").isTrue();
    if (prefix != null) {
      soft.assertThat(message(r)).as(what + " first error").startsWith(prefix);
    } else {
      soft.assertThat(r.json().path("errors").size()).as(what + " errors").isPositive();
    }
  }

  private static String b64(String plain) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(plain.getBytes(StandardCharsets.UTF_8));
  }

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
