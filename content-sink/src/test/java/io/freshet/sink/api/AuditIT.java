package io.freshet.sink.api;

import static io.freshet.sink.testing.ContentEvents.item;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.freshet.kit.security.Role;
import io.freshet.kit.testing.TestKeys;
import io.freshet.kit.testing.TestKeys.Key;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.sink.audit.AuditAction;
import io.freshet.sink.audit.AuditLog;
import io.freshet.sink.testing.ApiClient;
import io.freshet.sink.testing.SinkItSupport;
import io.freshet.testsupport.Infrastructure;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.transaction.IllegalTransactionStateException;
import tools.jackson.databind.JsonNode;

/**
 * The sink's audit log through its API: a tenant's write key marks and releases, an admin runs
 * cleanup, and {@code GET /audit} shows exactly those records, newest first, with the right keys
 * and tenants and no key's text; refused changes leave no record; a read key is refused; another
 * tenant's write key sees none of them.
 */
class AuditIT extends SinkItSupport {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @LocalServerPort int port;
  @Autowired AuditLog auditLog;

  @Test
  void everyChangeIsRecordedWithItsKeyAndTenantAndReadableByAdminAndItsOwnWriteKeyOnly() {
    String run = UUID.randomUUID().toString().substring(0, 8);
    String tenantA = "au" + run + "-a";
    String tenantB = "au" + run + "-b";
    Instant t = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);
    List<ContentFetched> content = new ArrayList<>();
    for (String tenant : List.of(tenantA, tenantB)) {
      for (String i : List.of("i1", "i2")) {
        content.add(
            ContentFetched.newBuilder(item(tenant + "-src", i, 1, t)).setTenantId(tenant).build());
      }
    }
    sendContent(content);
    await().atMost(WAIT).until(() -> rows("au" + run) == 4);
    List<Long> idsA = ids(tenantA + "-src");
    List<Long> idsB = ids(tenantB + "-src");

    Key admin = TestKeys.make(null, Role.ADMIN, null, null);
    Key writeA = TestKeys.make(tenantA, Role.WRITE, null, null);
    Key readA = TestKeys.make(tenantA, Role.READ, null, null);
    Key writeB = TestKeys.make(tenantB, Role.WRITE, null, null);
    List<Key> keys = List.of(admin, writeA, readA, writeB);
    TestKeys.publish(Infrastructure.kafka().bootstrapServers(), topics, keys);
    var api = new ApiClient(port, "unused");
    await()
        .atMost(WAIT)
        .untilAsserted(
            () -> {
              for (Key k : keys) {
                long id = k == writeB ? idsB.getFirst() : idsA.getFirst();
                assertThat(api.request("GET", "/content/" + id, k.bearer(), null).status())
                    .as("key %s known", k.id())
                    .isEqualTo(200);
              }
            });

    // the session: a mark, refused changes, a release, a cleanup
    String ids = idsA.get(0) + ", " + idsA.get(1);
    var marked =
        api.request(
            "POST",
            "/content/retention",
            writeA.bearer(),
            "{\"content_ids\": ["
                + ids
                + "], \"reason\": \"deliverable_execution\","
                + " \"ref\": \"v-1\"}");
    assertThat(marked.status()).as(marked.text()).isEqualTo(200);
    var noRef =
        api.request(
            "POST",
            "/content/retention/release",
            writeA.bearer(),
            "{\"content_ids\": [" + ids + "], \"reason\": \"deliverable_execution\"}");
    assertThat(noRef.status()).isEqualTo(400);
    var otherTenantsContent =
        api.request(
            "POST",
            "/content/retention",
            writeA.bearer(),
            "{\"content_ids\": [" + idsB.getFirst() + "], \"reason\": \"r\", \"ref\": \"x\"}");
    assertThat(otherTenantsContent.status()).isEqualTo(404);
    var otherTenantNamed =
        api.request(
            "POST",
            "/content/retention",
            writeA.bearer(),
            "{\"content_ids\": ["
                + idsA.getFirst()
                + "], \"reason\": \"r\", \"ref\": \"x\", \"tenant_id\": \""
                + tenantB
                + "\"}");
    assertThat(otherTenantNamed.status()).isEqualTo(404);
    var readKeyMark =
        api.request(
            "POST",
            "/content/retention",
            readA.bearer(),
            "{\"content_ids\": [" + idsA.getFirst() + "], \"reason\": \"r\", \"ref\": \"x\"}");
    assertThat(readKeyMark.status()).isEqualTo(403);
    var released =
        api.request(
            "POST",
            "/content/retention/release",
            writeA.bearer(),
            "{\"content_ids\": ["
                + idsA.get(0)
                + "], \"reason\": \"deliverable_execution\", \"ref\": \"v-1\"}");
    assertThat(released.status()).as(released.text()).isEqualTo(200);
    var cleanup = api.request("POST", "/cleanup", admin.bearer(), "");
    assertThat(cleanup.status()).as(cleanup.text()).isEqualTo(200);

    // the tenant's write key: exactly its two records, newest first
    var own = api.request("GET", "/audit", writeA.bearer(), null);
    assertThat(own.status()).as(own.text()).isEqualTo(200);
    List<JsonNode> entries = entries(own);
    assertThat(entries)
        .extracting(e -> e.get("action").asString())
        .containsExactly("retention.release", "retention.mark");
    assertThat(own.json().get("next_before").isNull()).isTrue();
    for (JsonNode e : entries) {
      assertThat(e.get("key_id").asString()).isEqualTo(writeA.id());
      assertThat(e.get("tenant_id").asString()).isEqualTo(tenantA);
      assertThat(e.get("target_id").asString()).isEqualTo("v-1");
      assertThat(e.get("at").asString()).isNotBlank();
      assertThat(e.get("changes").get("reason").asString()).isEqualTo("deliverable_execution");
      assertThat(e.get("changes").get("ref").asString()).isEqualTo("v-1");
    }
    JsonNode release = entries.get(0).get("changes");
    assertThat(release.get("content_ids").values())
        .extracting(JsonNode::asLong)
        .containsExactly(idsA.get(0));
    assertThat(release.get("released").asInt()).isEqualTo(1);
    JsonNode mark = entries.get(1).get("changes");
    assertThat(mark.get("content_ids").values())
        .extracting(JsonNode::asLong)
        .containsExactlyElementsOf(idsA);
    assertThat(mark.get("marked").asInt()).isEqualTo(2);
    assertThat(mark.get("already_marked").asInt()).isZero();
    assertThat(entries.get(0).get("id").asLong()).isGreaterThan(entries.get(1).get("id").asLong());
    noSecret(own.text(), keys);

    // paging: one a page, newest first
    var first = api.request("GET", "/audit?limit=1", writeA.bearer(), null);
    assertThat(entries(first)).hasSize(1);
    long nextBefore = first.json().get("next_before").asLong();
    assertThat(nextBefore).isEqualTo(entries.get(0).get("id").asLong());
    var second = api.request("GET", "/audit?limit=1&before=" + nextBefore, writeA.bearer(), null);
    assertThat(entries(second))
        .extracting(e -> e.get("action").asString())
        .containsExactly("retention.mark");

    // the admin: the tenant's records by tenant_id, and the cleanup among every tenant's
    var adminA = api.request("GET", "/audit?tenant_id=" + tenantA, admin.bearer(), null);
    assertThat(adminA.status()).isEqualTo(200);
    assertThat(entries(adminA))
        .extracting(e -> e.get("id").asLong())
        .containsExactlyElementsOf(entries.stream().map(e -> e.get("id").asLong()).toList());
    var all = api.request("GET", "/audit?limit=500", admin.bearer(), null);
    assertThat(all.status()).isEqualTo(200);
    Set<String> ours = Set.of(admin.id(), writeA.id(), readA.id(), writeB.id());
    List<JsonNode> session =
        entries(all).stream().filter(e -> ours.contains(e.get("key_id").asString())).toList();
    assertThat(session)
        .extracting(e -> e.get("action").asString())
        .containsExactly("cleanup", "retention.release", "retention.mark");
    JsonNode clean = session.getFirst();
    assertThat(clean.get("key_id").asString()).isEqualTo(admin.id());
    assertThat(clean.get("tenant_id").isNull()).isTrue();
    assertThat(clean.get("target_id").isNull()).isTrue();
    assertThat(clean.get("changes").get("deleted").asLong())
        .isEqualTo(cleanup.json().get("deleted").asLong());
    assertThat(clean.get("changes").get("activity_deleted").asLong())
        .isEqualTo(cleanup.json().get("activity_deleted").asLong());
    assertThat(clean.get("changes").get("batches").asInt())
        .isEqualTo(cleanup.json().get("batches").asInt());
    noSecret(all.text(), keys);

    // a read key never reads the audit log; another tenant's write key sees none of A's records
    assertThat(api.request("GET", "/audit", readA.bearer(), null).status()).isEqualTo(403);
    var other = api.request("GET", "/audit", writeB.bearer(), null);
    assertThat(other.status()).isEqualTo(200);
    assertThat(entries(other)).isEmpty();
    assertThat(other.text()).doesNotContain(tenantA);
    var named = api.request("GET", "/audit?tenant_id=" + tenantA, writeB.bearer(), null);
    assertThat(named.status()).isEqualTo(404);
    assertThat(api.request("GET", "/audit", null, null).status()).isEqualTo(401);

    // a bad parameter: 400 naming it
    assertThat(message(api.request("GET", "/audit?limit=0", admin.bearer(), null)))
        .startsWith("limit:");
    assertThat(message(api.request("GET", "/audit?limit=501", admin.bearer(), null)))
        .startsWith("limit:");
    assertThat(message(api.request("GET", "/audit?before=x", admin.bearer(), null)))
        .startsWith("before:");
    var badTenant = api.request("GET", "/audit?tenant_id=a%20b", admin.bearer(), null);
    assertThat(badTenant.status()).isEqualTo(400);
    assertThat(message(badTenant)).startsWith("tenant_id:");
  }

  @Test
  void aRecordIsWrittenOnlyInsideTheTransactionOfItsChange() {
    assertThatThrownBy(() -> auditLog.record("k", "t", AuditAction.RETENTION_MARK, "ref", null))
        .isInstanceOf(IllegalTransactionStateException.class);
  }

  private List<Long> ids(String source) {
    return jdbc.sql("SELECT id FROM platform_content WHERE source_id = :s ORDER BY id")
        .param("s", source)
        .query(Long.class)
        .list();
  }

  private static List<JsonNode> entries(ApiClient.Response r) {
    assertThat(r.status()).as(r.text()).isEqualTo(200);
    return r.json().get("entries").values().stream().toList();
  }

  private static void noSecret(String body, List<Key> keys) {
    for (Key k : keys) {
      assertThat(body).doesNotContain(k.text());
      assertThat(body).doesNotContain(k.secret());
    }
  }

  private static String message(ApiClient.Response r) {
    assertThat(r.status()).as(r.text()).isEqualTo(400);
    return r.json().path("errors").path(0).asString();
  }
}
