package io.freshet.sink.api;

import static io.freshet.sink.testing.ContentEvents.completed;
import static io.freshet.sink.testing.ContentEvents.digest;
import static io.freshet.sink.testing.ContentEvents.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.kit.security.KeyTopicReader;
import io.freshet.kit.security.Role;
import io.freshet.kit.testing.TestKeys;
import io.freshet.kit.testing.TestKeys.Key;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.SignalType;
import io.freshet.sink.testing.ApiClient;
import io.freshet.sink.testing.SinkItSupport;
import io.freshet.testsupport.Infrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The cross-tenant matrix: three tenants, each with content, versions and an activity log; keys
 * admin, write, read, revoked, expired, none and a bogus one; every endpoint against each tenant's
 * objects → the status the module README documents, another tenant's object the same 404 as a
 * missing one, and no other tenant's data (nor any cursor token) in any body. Keys are made as the
 * scheduler makes them and arrive as it publishes them: on the key topic.
 */
class TenantMatrixIT extends SinkItSupport {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @LocalServerPort int port;
  @Autowired ObjectProvider<KeyTopicReader> keyTopicReader;

  /**
   * A tenant's fixture: its source, the ids of its content, and the markers only its data holds.
   */
  record Tenant(String id, String source, List<Long> contentIds, String marker, String syncToken) {}

  /**
   * A caller: its name, the tenant its key acts for (null for admin and for keys that must fail),
   * what it is, and the Authorization header it sends (null: none).
   */
  record Caller(String name, String tenant, String kind, String authorization) {}

  @Test
  void everyEndpointAnswersEachKeyForItsOwnTenantOnly() {
    // the sink's default configuration reads the key topic (the issue: under ./freshet up it
    // answered reads without a token)
    assertThat(keyTopicReader.getIfAvailable()).as("key topic reader").isNotNull();

    String run = UUID.randomUUID().toString().substring(0, 8);
    Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(3600);
    List<Tenant> made = new ArrayList<>();
    List<ContentFetched> content = new ArrayList<>();
    List<FetchCompleted> outcomes = new ArrayList<>();
    for (String x : List.of("a", "b", "c")) {
      String tenant = "mx" + run + "-" + x;
      String source = tenant + "-src";
      String marker = "private-" + UUID.randomUUID();
      String sync = "sync-" + UUID.randomUUID();
      for (var e :
          List.of(
              item(source, "i1", 1, t),
              item(source, "i1", 2, t.plusSeconds(60)),
              item(source, "i2", 1, t))) {
        content.add(
            ContentFetched.newBuilder(e)
                .setTenantId(tenant)
                .setSignalType(SignalType.event)
                .setBody("body of " + marker)
                .build());
      }
      outcomes.add(
          FetchCompleted.newBuilder(
                  completed(
                      source,
                      source + ":" + t.toEpochMilli(),
                      t,
                      List.of(
                          digest("i1", 1, ItemNovelty.added), digest("i2", 1, ItemNovelty.added))))
              .setTenantId(tenant)
              .setCursor(Map.of("etag", "\"e-" + x + "\"", "sync_token", sync))
              .build());
      made.add(new Tenant(tenant, source, List.of(), marker, sync));
    }
    sendContent(content);
    sendCompleted(outcomes);
    await().atMost(WAIT).until(() -> rows("mx" + run) == 9);
    await()
        .atMost(WAIT)
        .until(
            () ->
                jdbc.sql("SELECT count(*) FROM activity_log WHERE source_id LIKE :p AND completed")
                        .param("p", "mx" + run + "%")
                        .query(Long.class)
                        .single()
                    == 3);
    List<Tenant> tenants =
        made.stream()
            .map(
                tn ->
                    new Tenant(
                        tn.id(),
                        tn.source(),
                        jdbc.sql("SELECT id FROM platform_content WHERE source_id = :s ORDER BY id")
                            .param("s", tn.source())
                            .query(Long.class)
                            .list(),
                        tn.marker(),
                        tn.syncToken()))
            .toList();

    // the keys, as the scheduler publishes them
    Instant past = Instant.now().minusSeconds(60);
    Key admin = TestKeys.make(null, Role.ADMIN, null, null);
    List<Key> keys = new ArrayList<>(List.of(admin));
    List<Caller> callers = new ArrayList<>();
    callers.add(new Caller("admin", null, "admin", admin.bearer()));
    List<Key> valid = new ArrayList<>(List.of(admin));
    for (Tenant tn : tenants) {
      Key write = TestKeys.make(tn.id(), Role.WRITE, null, null);
      Key read = TestKeys.make(tn.id(), Role.READ, null, null);
      Key revoked = TestKeys.make(tn.id(), Role.WRITE, null, past);
      Key expired = TestKeys.make(tn.id(), Role.WRITE, past, null);
      keys.addAll(List.of(write, read, revoked, expired));
      valid.addAll(List.of(write, read));
      callers.add(new Caller("write-" + tn.id(), tn.id(), "write", write.bearer()));
      callers.add(new Caller("read-" + tn.id(), tn.id(), "read", read.bearer()));
      callers.add(new Caller("revoked-" + tn.id(), null, "refused", revoked.bearer()));
      callers.add(new Caller("expired-" + tn.id(), null, "refused", expired.bearer()));
    }
    callers.add(new Caller("none", null, "refused", null));
    callers.add(new Caller("bogus", null, "refused", "Bearer nope"));
    TestKeys.publish(Infrastructure.kafka().bootstrapServers(), topics, keys);

    var api = new ApiClient(port, "unused");
    long anyId = tenants.getFirst().contentIds().getFirst();
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              for (Key k : valid) {
                String path =
                    "/content/"
                        + (k.state().tenantId() == null
                            ? anyId
                            : tenant(tenants, k.state().tenantId()).contentIds().getFirst());
                assertThat(api.request("GET", path, k.bearer(), null).status())
                    .as("key %s known", k.id())
                    .isEqualTo(200);
              }
            });

    var soft = new SoftAssertions();
    int checked = 0;
    for (Caller caller : callers) {
      for (Tenant target : tenants) {
        boolean own = caller.tenant() == null || caller.tenant().equals(target.id());
        long id = target.contentIds().getFirst();
        String markBody =
            "{\"content_ids\": ["
                + id
                + "], \"reason\": \"matrix\", \"ref\": \""
                + caller.name()
                + "\""
                + (caller.kind().equals("admin") ? ", \"tenant_id\": \"" + target.id() + "\"" : "")
                + "}";
        List<String[]> calls =
            List.of(
                new String[] {"GET", "/content/" + id, null},
                new String[] {"GET", "/content/" + id + "/versions", null},
                new String[] {"GET", "/sources/" + target.source() + "/content", null},
                new String[] {
                  "GET", "/tenants/" + target.id() + "/content?signal_type=event", null
                },
                new String[] {"GET", "/sources/" + target.source() + "/activity", null},
                new String[] {"POST", "/content/retention", markBody},
                new String[] {"POST", "/content/retention/release", markBody},
                new String[] {"GET", "/audit?tenant_id=" + target.id(), null});
        for (String[] call : calls) {
          var r = api.request(call[0], call[1], caller.authorization(), call[2]);
          int expected = expected(caller.kind(), call[0], call[1], own);
          String what = caller.name() + " " + call[0] + " " + call[1] + " of " + target.id();
          soft.assertThat(r.status()).as(what + " -> " + r.text()).isEqualTo(expected);
          if (expected == 404) {
            soft.assertThat(message(r)).as(what).isEqualTo(missing(call[1], target, id));
          }
          if (expected == 200 && call[1].endsWith("/release")) {
            soft.assertThat(r.json().get("released").asInt()).as(what).isEqualTo(1);
          }
          if (expected == 200 && call[1].endsWith("/activity")) {
            soft.assertThat(r.text()).as(what).contains("\"sync_token\":\"***\"");
          }
          noLeak(soft, what, r.text(), caller, tenants);
          checked++;
        }
      }
      var cleanup = api.request("POST", "/cleanup", caller.authorization(), "");
      int expected =
          switch (caller.kind()) {
            case "admin" -> 200;
            case "refused" -> 401;
            default -> 403;
          };
      soft.assertThat(cleanup.status())
          .as(caller.name() + " POST /cleanup -> " + cleanup.text())
          .isIn(expected, expected == 200 ? 409 : expected);
      checked++;
    }

    // an admin acts for every tenant, so a mark must say which; a release must name its ref
    long idA = tenants.getFirst().contentIds().getFirst();
    var adminNoTenant =
        api.request(
            "POST",
            "/content/retention",
            admin.bearer(),
            "{\"content_ids\": [" + idA + "], \"reason\": \"r\", \"ref\": \"x\"}");
    soft.assertThat(adminNoTenant.status()).isEqualTo(400);
    soft.assertThat(message(adminNoTenant)).startsWith("tenant_id:");
    var noRef =
        api.request(
            "POST",
            "/content/retention/release",
            callers.get(1).authorization(),
            "{\"content_ids\": [" + idA + "], \"reason\": \"matrix\"}");
    soft.assertThat(noRef.status()).isEqualTo(400);
    soft.assertThat(message(noRef)).startsWith("ref: must not be blank");
    // a tenant key naming another tenant in the body: the same 404 as an unknown tenant
    var named =
        api.request(
            "POST",
            "/content/retention",
            callers.get(1).authorization(),
            "{\"content_ids\": ["
                + idA
                + "], \"reason\": \"r\", \"ref\": \"x\", \"tenant_id\": \""
                + tenants.get(1).id()
                + "\"}");
    soft.assertThat(named.status()).isEqualTo(404);
    soft.assertAll();
    assertThat(checked).isEqualTo(callers.size() * (3 * 8 + 1));
    // every mark the matrix set was released by its owner: none left
    assertThat(
            jdbc.sql(
                    "SELECT count(*) FROM content_retention r JOIN platform_content c"
                        + " ON c.id = r.content_id WHERE c.source_id LIKE :p")
                .param("p", "mx" + run + "%")
                .query(Long.class)
                .single())
        .isZero();
  }

  @Test
  void anActivityRowKeepsTheTenantItsItemsNamedWhenTheOutcomeCarriesNone() {
    String run = UUID.randomUUID().toString().substring(0, 8);
    Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);
    String tenant = "mt" + run;
    // items first, then an outcome of an older worker without a tenant
    String first = tenant + "-first";
    var items = ContentFetched.newBuilder(item(first, "i", 1, t)).setTenantId(tenant).build();
    sendContent(List.of(items));
    await().atMost(WAIT).until(() -> rows(first) == 1);
    sendCompleted(
        List.of(
            FetchCompleted.newBuilder(
                    completed(
                        first, items.getRequestId(), t, List.of(digest("i", 1, ItemNovelty.added))))
                .setTenantId("")
                .build()));
    // the outcome first (no tenant), then its items
    String second = tenant + "-second";
    var later = ContentFetched.newBuilder(item(second, "i", 1, t)).setTenantId(tenant).build();
    sendCompleted(
        List.of(
            FetchCompleted.newBuilder(
                    completed(
                        second,
                        later.getRequestId(),
                        t,
                        List.of(digest("i", 1, ItemNovelty.added))))
                .setTenantId("")
                .build()));
    await().atMost(WAIT).until(() -> activityTenant(second) != null);
    sendContent(List.of(later));
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              assertThat(activityTenant(first)).isEqualTo(tenant);
              assertThat(activityTenant(second)).isEqualTo(tenant);
            });
  }

  private String activityTenant(String source) {
    return jdbc.sql("SELECT tenant_id FROM activity_log WHERE source_id = :s AND completed")
        .param("s", source)
        .query(String.class)
        .optional()
        .orElse(null);
  }

  /** The documented status: module README, "Who sees what". */
  private static int expected(String kind, String method, String path, boolean own) {
    return switch (kind) {
      case "refused" -> 401;
      case "admin" -> 200;
      // the audit log names keys and what they changed: never for a read key
      case "read" -> method.equals("POST") || path.startsWith("/audit") ? 403 : own ? 200 : 404;
      case "write" -> own ? 200 : 404;
      default -> throw new IllegalArgumentException(kind);
    };
  }

  /** What the sink says of an object that does not exist: another tenant's must read the same. */
  private static String missing(String path, Tenant target, long id) {
    if (path.startsWith("/audit")) {
      return "tenant " + target.id() + " not found";
    }
    if (path.startsWith("/content/retention")) {
      return "content_ids: unknown content id(s) [" + id + "]; nothing was changed";
    }
    if (path.startsWith("/content/")) {
      return "id: no content with id " + id;
    }
    if (path.startsWith("/tenants/")) {
      return "tenantId: the sink has stored no content of tenant '" + target.id() + "'";
    }
    return "sourceId: the sink has stored no content or activity of source '"
        + target.source()
        + "'";
  }

  private static void noLeak(
      SoftAssertions soft, String what, String body, Caller caller, List<Tenant> tenants) {
    for (Tenant other : tenants) {
      soft.assertThat(body).as(what + ": a cursor token").doesNotContain(other.syncToken());
      if (caller.tenant() != null && !caller.tenant().equals(other.id())) {
        soft.assertThat(body).as(what + ": data of " + other.id()).doesNotContain(other.marker());
      }
    }
    if (caller.kind().equals("refused")) {
      for (Tenant tn : tenants) {
        soft.assertThat(body).as(what + ": refused").doesNotContain(tn.marker());
      }
    }
  }

  private static Tenant tenant(List<Tenant> tenants, String id) {
    return tenants.stream().filter(t -> t.id().equals(id)).findFirst().orElseThrow();
  }

  private static String message(ApiClient.Response r) {
    return r.json() == null ? r.text() : r.json().path("errors").path(0).asString();
  }
}
