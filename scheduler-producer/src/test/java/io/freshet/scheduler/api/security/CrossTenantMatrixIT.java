package io.freshet.scheduler.api.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Three tenants × every kind of key × every endpoint of the scheduler → the documented status, and
 * no other tenant's id, source id or URL in any body a tenant key gets (unless the request itself
 * named it). Kinds: the admin key, each tenant's write and read keys, no key, a revoked key, an
 * expired key and a malformed one. Another tenant's object is 404 with the body of a missing one.
 */
class CrossTenantMatrixIT extends ApiItSupport {

  /** A tenant of the matrix: its keys and its sources. */
  private record Tenant(String id, String write, String read, UUID source, String host) {}

  private final SoftAssertions soft = new SoftAssertions();
  private final List<Tenant> tenants = new ArrayList<>();
  private final List<String> nonKeys = new ArrayList<>();

  @Test
  void everyEndpointAnswersEachKeyForItsOwnTenantOnly() {
    setUp();
    for (Tenant own : tenants) {
      for (Tenant other : tenants) {
        if (other != own) {
          asTenantKeys(own, other);
        }
      }
      asTenantKeysOnTheirOwn(own);
    }
    asAdmin();
    withoutAValidKey();
    soft.assertAll();
  }

  // --- set-up ----------------------------------------------------------------------------------

  private void setUp() {
    String b = "t-" + UUID.randomUUID().toString().substring(0, 8);
    String c = "t-" + UUID.randomUUID().toString().substring(0, 8);
    tenant(b, "pro");
    tenant(c, "pro");
    for (String id : List.of(tenant, b, c)) {
      String host = "feed-" + id + ".example.org";
      UUID source =
          api.post(
                  "/sources",
                  """
                  {"tenant_id": "%s", "name": "Feed of %s", "connector": "json",
                   "url": "https://%s/items?api_key=Q-%s&page=1",
                   "config": {"sync_token_param": "syncToken", "headers": {"X-Api-Key": "H-%s"}},
                   "credentials": {"bearer": "C-%s"}}
                  """
                      .formatted(id, id, host, id, id, id))
              .id();
      tenants.add(new Tenant(id, key(id, "write", null), key(id, "read", null), source, host));
    }
    String revoked = key(tenant, "write", null);
    String expiring = key(tenant, "write", Instant.now().plusSeconds(4));
    for (Tenant t : tenants) {
      awaitStatus(t.write(), 200);
      awaitStatus(t.read(), 200);
    }
    awaitStatus(revoked, 200);
    assertThat(api.send("DELETE", "/keys/" + idOf(revoked), null, null, ApiClient.TOKEN).status())
        .isEqualTo(200);
    awaitStatus(revoked, 401);
    assertThat(api.send("GET", "/sources", null, null, revoked).errors().getFirst())
        .endsWith("was revoked");
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              ApiClient.Response r = api.send("GET", "/sources", null, null, expiring);
              return r.status() == 401 && r.errors().getFirst().endsWith("has expired");
            });
    nonKeys.add(null);
    nonKeys.add(revoked);
    nonKeys.add(expiring);
    nonKeys.add("nope");
    nonKeys.add("fk_0123456789abcdef_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  }

  private String key(String tenantId, String role, Instant expires) {
    String body =
        expires == null
            ? "{\"tenant_id\": \"%s\", \"role\": \"%s\"}".formatted(tenantId, role)
            : "{\"tenant_id\": \"%s\", \"role\": \"%s\", \"expires_at\": \"%s\"}"
                .formatted(tenantId, role, expires.truncatedTo(ChronoUnit.MILLIS));
    ApiClient.Response r = api.send("POST", "/keys", ApiClient.JSON, body, ApiClient.TOKEN);
    assertThat(r.status()).as(r.text()).isEqualTo(201);
    return r.json().get("key").stringValue();
  }

  private static String idOf(String key) {
    return key.split("_")[1];
  }

  private void awaitStatus(String key, int status) {
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> api.send("GET", "/sources?size=1", null, null, key).status() == status);
  }

  // --- the matrix ------------------------------------------------------------------------------

  /** {@code own}'s keys against {@code other}'s tenant and source: 404 (write) or 403 (read). */
  private void asTenantKeys(Tenant own, Tenant other) {
    String o = other.id();
    UUID s = other.source();
    JsonNode before = api.get("/sources/" + s).json();
    for (String key : List.of(own.write(), own.read())) {
      boolean write = key.equals(own.write());
      int denied = write ? 404 : 403;
      expectMissingSource(own, key, s);
      expect(own, key, "GET", "/sources?tenant_id=" + o, null, 404);
      expect(own, key, "GET", "/tenants/" + o, null, 404);
      expect(own, key, "PUT", "/sources/" + s, "{\"priority\": 3}", denied);
      expect(own, key, "POST", "/sources/" + s + "/enable", null, denied);
      expect(own, key, "POST", "/sources/" + s + "/disable", null, denied);
      expect(own, key, "POST", "/sources/" + s + "/fetch", null, denied);
      expect(own, key, "DELETE", "/sources/" + s, null, denied);
      expect(own, key, "POST", "/sources", newSource(o, "x"), denied);
      expect(own, key, "POST", "/sources/import/ndjson?tenant_id=" + o, ndjson(null), denied);
      expect(own, key, "POST", "/sources/import/ndjson", ndjson(o), denied);
      expect(own, key, "POST", "/sources/import/opml?tenant_id=" + o, opml(), denied);
      expect(own, key, "POST", "/runs", run(o), denied);
      expect(own, key, "GET", "/audit?tenant_id=" + o, null, write ? 404 : 403);
      // admin-only, whatever the tenant
      expect(own, key, "PUT", "/tenants/" + o, "{\"tier\": \"free\"}", 403);
      expect(own, key, "DELETE", "/tenants/" + o, null, 403);
      expect(own, key, "GET", "/keys?tenant_id=" + o, null, 403);
    }
    // the other tenant's source is untouched
    ApiClient.Response still = api.get("/sources/" + s);
    soft.assertThat(still.status()).as("source " + s + " still there").isEqualTo(200);
    if (still.status() != 200) {
      return;
    }
    JsonNode after = still.json();
    soft.assertThat(after.get("updated_at"))
        .as("source " + s + " untouched")
        .isEqualTo(before.get("updated_at"));
    soft.assertThat(after.get("schedule").get("manual_requested"))
        .as("no fetch-now of " + s)
        .isEqualTo(before.get("schedule").get("manual_requested"));
  }

  /** {@code own}'s keys on their own tenant: everything the role allows. */
  private void asTenantKeysOnTheirOwn(Tenant own) {
    String t = own.id();
    UUID s = own.source();
    String w = own.write();
    String r = own.read();
    for (String key : List.of(w, r)) {
      ApiClient.Response list = expect(own, key, "GET", "/sources", null, 200);
      soft.assertThat(ids(list.json().get("items"))).as("list of " + t).containsExactly(s);
      expect(own, key, "GET", "/sources?tenant_id=" + t, null, 200);
      ApiClient.Response one = expect(own, key, "GET", "/sources/" + s, null, 200);
      soft.assertThat(one.text()).as("source of " + t).doesNotContain("Q-" + t, "H-" + t, "C-" + t);
      soft.assertThat(one.json().at("/config/sync_token_param").stringValue())
          .isEqualTo("syncToken");
      ApiClient.Response tenantsList = expect(own, key, "GET", "/tenants", null, 200);
      soft.assertThat(tenantsList.json().get("items").valueStream().map(n -> n.get("id")))
          .as("tenants seen by " + t)
          .extracting(JsonNode::stringValue)
          .containsExactly(t);
      expect(own, key, "GET", "/tenants/" + t, null, 200);
      // admin-only
      expect(own, key, "POST", "/tenants", "{\"id\": \"x-" + t + "\", \"tier\": \"pro\"}", 403);
      expect(own, key, "PUT", "/tenants/" + t, "{\"tier\": \"free\"}", 403);
      expect(own, key, "DELETE", "/tenants/" + t, null, 403);
      expect(own, key, "GET", "/keys", null, 403);
      expect(own, key, "GET", "/keys/" + idOf(w), null, 403);
      expect(own, key, "POST", "/keys", "{\"tenant_id\": \"" + t + "\", \"role\": \"read\"}", 403);
      expect(own, key, "DELETE", "/keys/" + idOf(r), null, 403);
    }
    // a read key never writes, on its own tenant either
    expect(own, r, "PUT", "/sources/" + s, "{\"priority\": 2}", 403);
    expect(own, r, "POST", "/sources/" + s + "/disable", null, 403);
    expect(own, r, "POST", "/sources/" + s + "/enable", null, 403);
    expect(own, r, "POST", "/sources/" + s + "/fetch", null, 403);
    expect(own, r, "DELETE", "/sources/" + s, null, 403);
    expect(own, r, "POST", "/sources", newSource(t, "r"), 403);
    expect(own, r, "POST", "/sources/import/ndjson", ndjson(null), 403);
    expect(own, r, "POST", "/sources/import/opml", opml(), 403);
    expect(own, r, "POST", "/runs", run(null), 403);
    expect(own, r, "GET", "/audit", null, 403);

    // the write key: its own tenant, named or not
    ApiClient.Response read = expect(own, w, "GET", "/sources/" + s, null, 200);
    expect(own, w, "PUT", "/sources/" + s, read.text(), 200); // what it read, written back
    soft.assertThat(storedUrl(s)).as("secret kept").contains("api_key=Q-" + t);
    expect(own, w, "PUT", "/sources/" + s, "{\"priority\": 4, \"tenant_id\": \"" + t + "\"}", 200);
    expect(own, w, "POST", "/sources/" + s + "/disable", null, 200);
    expect(own, w, "POST", "/sources/" + s + "/enable", null, 200);
    expect(own, w, "POST", "/sources/" + s + "/fetch", null, 202);
    ApiClient.Response made = expect(own, w, "POST", "/sources", newSource(null, "m"), 201);
    soft.assertThat(made.json().get("tenant_id").stringValue()).isEqualTo(t);
    expect(own, w, "DELETE", "/sources/" + made.id(), null, 204);
    expect(own, w, "POST", "/sources", newSource(t, "n"), 201);
    expect(own, w, "POST", "/sources/import/ndjson", ndjson(null), 201);
    expect(own, w, "POST", "/sources/import/ndjson?tenant_id=" + t, ndjson(t), 201);
    expect(own, w, "POST", "/sources/import/opml", opml(), 201);
    ApiClient.Response ran = expect(own, w, "POST", "/runs", run(null), 200);
    soft.assertThat(ran.json().get("tenant_id").stringValue()).isEqualTo(t);
    ApiClient.Response audit = expect(own, w, "GET", "/audit?limit=500", null, 200);
    soft.assertThat(audit.json().get("entries").valueStream().map(e -> e.get("tenant_id")))
        .as("audit of " + t)
        .isNotEmpty()
        .allSatisfy(id -> assertThat(id.stringValue()).isEqualTo(t));
    expect(own, w, "GET", "/audit?tenant_id=" + t, null, 200);
  }

  private void asAdmin() {
    String a = ApiClient.TOKEN;
    ApiClient.Response all = api.send("GET", "/sources?size=500", null, null, a);
    soft.assertThat(all.status()).isEqualTo(200);
    List<UUID> seen = ids(all.json().get("items"));
    for (Tenant t : tenants) {
      soft.assertThat(seen).as("admin sees " + t.id()).contains(t.source());
      ApiClient.Response one =
          api.send("GET", "/sources?tenant_id=" + t.id() + "&size=500", null, null, a);
      soft.assertThat(one.json().get("items").valueStream().map(n -> n.get("tenant_id")))
          .extracting(JsonNode::stringValue)
          .containsOnly(t.id());
      soft.assertThat(api.send("GET", "/sources/" + t.source(), null, null, a).status())
          .isEqualTo(200);
      soft.assertThat(api.send("GET", "/tenants/" + t.id(), null, null, a).status()).isEqualTo(200);
    }
    ApiClient.Response noTenant =
        api.send("POST", "/sources", ApiClient.JSON, newSource(null, "a"), a);
    soft.assertThat(noTenant.status()).as("admin must name the tenant").isEqualTo(400);
    soft.assertThat(noTenant.errors()).anySatisfy(e -> assertThat(e).startsWith("tenant_id:"));
    ApiClient.Response opml = api.send("POST", "/sources/import/opml", "text/x-opml", opml(), a);
    soft.assertThat(opml.status()).as("admin OPML without tenant").isEqualTo(400);
    soft.assertThat(api.send("GET", "/audit", null, null, a).status()).isEqualTo(200);
    soft.assertThat(api.send("GET", "/tenants", null, null, a).json().get("items").size())
        .isEqualTo(3);
    soft.assertThat(api.send("GET", "/audit?limit=0", null, null, a).status()).isEqualTo(400);
    soft.assertThat(api.send("GET", "/audit?before=x", null, null, a).status()).isEqualTo(400);
  }

  private void withoutAValidKey() {
    Tenant t = tenants.getFirst();
    Map<String, String[]> calls = new LinkedHashMap<>();
    calls.put("GET /sources", null);
    calls.put("GET /sources/" + t.source(), null);
    calls.put("PUT /sources/" + t.source(), new String[] {"{\"priority\": 1}"});
    calls.put("POST /sources/" + t.source() + "/enable", null);
    calls.put("POST /sources/" + t.source() + "/disable", null);
    calls.put("POST /sources/" + t.source() + "/fetch", null);
    calls.put("DELETE /sources/" + t.source(), null);
    calls.put("POST /sources", new String[] {newSource(t.id(), "u")});
    calls.put("POST /sources/import/ndjson", new String[] {ndjson(t.id())});
    calls.put("POST /runs", new String[] {run(t.id())});
    calls.put("GET /tenants", null);
    calls.put("GET /tenants/" + t.id(), null);
    calls.put("POST /tenants", new String[] {"{\"id\": \"zz\", \"tier\": \"pro\"}"});
    calls.put("PUT /tenants/" + t.id(), new String[] {"{\"tier\": \"free\"}"});
    calls.put("DELETE /tenants/" + t.id(), null);
    calls.put("GET /keys", null);
    calls.put("POST /keys", new String[] {"{\"role\": \"admin\"}"});
    calls.put("GET /audit", null);
    for (String key : nonKeys) {
      calls.forEach(
          (call, body) -> {
            String[] parts = call.split(" ", 2);
            ApiClient.Response r =
                api.send(
                    parts[0],
                    parts[1],
                    body == null
                        ? null
                        : parts[1].endsWith("ndjson") ? "application/x-ndjson" : ApiClient.JSON,
                    body == null ? null : body[0],
                    key);
            soft.assertThat(r.status()).as(call + " with " + describe(key)).isEqualTo(401);
            soft.assertThat(r.text()).as(call).doesNotContain(t.host(), t.source().toString());
          });
    }
  }

  // --- one call --------------------------------------------------------------------------------

  /** Calls as {@code own}'s key, checks the status and that no other tenant leaks into the body. */
  private ApiClient.Response expect(
      Tenant own, String key, String method, String path, String body, int status) {
    String type =
        body == null
            ? null
            : path.contains("/ndjson")
                ? "application/x-ndjson"
                : path.contains("/opml") ? "text/x-opml" : ApiClient.JSON;
    ApiClient.Response r = api.send(method, path, type, body, key);
    String what = method + " " + path + " as " + role(own, key) + " of " + own.id();
    soft.assertThat(r.status()).as(what + ": " + r.text()).isEqualTo(status);
    String request = path + " " + (body == null ? "" : body);
    for (Tenant other : tenants) {
      if (other == own) {
        continue;
      }
      for (String leak :
          List.of(other.id(), other.source().toString(), other.host(), "Q-" + other.id())) {
        if (!request.contains(leak)) {
          soft.assertThat(r.text()).as(what + " leaks " + leak).doesNotContain(leak);
        }
      }
    }
    return r;
  }

  /** Another tenant's source answers exactly as a missing one (the id aside). */
  private void expectMissingSource(Tenant own, String key, UUID other) {
    ApiClient.Response hidden = expect(own, key, "GET", "/sources/" + other, null, 404);
    UUID missing = UUID.randomUUID();
    ApiClient.Response absent = api.send("GET", "/sources/" + missing, null, null, key);
    soft.assertThat(hidden.text().replace(other.toString(), "ID"))
        .as("another tenant's source is answered as a missing one")
        .isEqualTo(absent.text().replace(missing.toString(), "ID"));
    ApiClient.Response hiddenTenant =
        api.send("GET", "/tenants/" + otherTenantOf(other), null, null, key);
    ApiClient.Response absentTenant = api.send("GET", "/tenants/no-such-tenant", null, null, key);
    soft.assertThat(hiddenTenant.text().replace(otherTenantOf(other), "ID"))
        .isEqualTo(absentTenant.text().replace("no-such-tenant", "ID"));
  }

  private String otherTenantOf(UUID source) {
    return tenants.stream().filter(t -> t.source().equals(source)).findFirst().orElseThrow().id();
  }

  private String storedUrl(UUID id) {
    return jdbc.sql("SELECT url FROM scheduler.sources WHERE id = ?")
        .params(id)
        .query(String.class)
        .single();
  }

  private static String role(Tenant own, String key) {
    return key.equals(own.write()) ? "write key" : "read key";
  }

  private static String describe(String key) {
    return key == null ? "no key" : key.length() > 12 ? key.substring(0, 12) + "…" : key;
  }

  private static List<UUID> ids(JsonNode sources) {
    return sources.valueStream().map(n -> UUID.fromString(n.get("id").stringValue())).toList();
  }

  private static String newSource(String tenantId, String name) {
    String tenant = tenantId == null ? "" : "\"tenant_id\": \"" + tenantId + "\", ";
    return "{%s\"name\": \"%s\", \"connector\": \"feed\", \"url\": \"https://%s.example.net/%s\"}"
        .formatted(tenant, name, name, UUID.randomUUID());
  }

  private static String ndjson(String tenantId) {
    String tenant = tenantId == null ? "" : "\"tenant_id\": \"" + tenantId + "\", ";
    return "{%s\"name\": \"Imported\", \"connector\": \"feed\", \"url\": \"https://i.example.net/%s\"}\n"
        .formatted(tenant, UUID.randomUUID());
  }

  private static String opml() {
    return """
        <?xml version="1.0"?><opml version="2.0"><head><title>s</title></head><body>
        <outline text="O" xmlUrl="https://o.example.net/%s"/></body></opml>
        """
        .formatted(UUID.randomUUID());
  }

  private static String run(String tenantId) {
    String at = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    return tenantId == null
        ? "{\"window_end\": \"%s\"}".formatted(at)
        : "{\"window_end\": \"%s\", \"tenant_id\": \"%s\"}".formatted(at, tenantId);
  }
}
