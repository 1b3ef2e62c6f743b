package io.freshet.scheduler.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.kit.security.ApiKeys;
import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The audit records of a scripted session of changes — create, update, fetch-now, import, run,
 * delete, key create and revoke — with the keys that made them, newest first, paged, and without
 * any secret: not the key's text, not a credential, not a secret query or config value.
 */
class AuditLogIT extends ApiItSupport {

  @Test
  void aSessionOfChangesIsRecordedWithItsKeysAndWithoutASecret() {
    // an admin makes a write key for the tenant
    ApiClient.Response made =
        api.send(
            "POST",
            "/keys",
            ApiClient.JSON,
            "{\"tenant_id\": \"%s\", \"role\": \"write\"}".formatted(tenant),
            ApiClient.TOKEN);
    String key = made.json().get("key").stringValue();
    String keyId = made.json().get("id").stringValue();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> api.send("GET", "/sources?size=1", null, null, key).status() == 200);

    // the write key's session
    UUID id =
        send(
                key,
                "POST",
                "/sources",
                """
                {"name": "Partner API", "connector": "json",
                 "url": "https://api.example.org/v1/items?api_key=QUERY-SECRET&page=1",
                 "config": {"headers": {"X-Api-Key": "HEADER-SECRET"},
                            "sync_token_param": "syncToken"},
                 "credentials": {"bearer": "CREDENTIAL-SECRET"}}
                """,
                201)
            .id();
    send(
        key,
        "PUT",
        "/sources/" + id,
        "{\"name\": \"Partner API v2\", \"credentials\": {\"bearer\": \"CREDENTIAL-SECRET-2\"}}",
        200);
    send(key, "POST", "/sources/" + id + "/fetch", null, 202);
    send(
        key,
        "POST",
        "/sources/import/ndjson",
        "{\"name\": \"Blog\", \"connector\": \"feed\", \"url\": \"https://blog.example.org/feed\"}",
        201);
    String runId =
        send(
                key,
                "POST",
                "/runs",
                "{\"window_end\": \"%s\"}".formatted(Instant.now().truncatedTo(ChronoUnit.SECONDS)),
                200)
            .json()
            .get("run_id")
            .stringValue();
    send(key, "DELETE", "/sources/" + id, null, 204);
    // a refused change leaves no record
    send(key, "PUT", "/sources/" + UUID.randomUUID(), "{\"name\": \"x\"}", 404);
    // the admin revokes the key
    send(ApiClient.TOKEN, "DELETE", "/keys/" + keyId, null, 200);

    ApiClient.Response page =
        api.send("GET", "/audit?tenant_id=" + tenant, null, null, ApiClient.TOKEN);
    assertThat(page.status()).isEqualTo(200);
    List<JsonNode> entries = page.json().get("entries").valueStream().toList();
    assertThat(entries.stream().map(e -> e.get("action").stringValue()))
        .containsExactly(
            "key.revoke",
            "source.delete",
            "run",
            "import",
            "source.fetch_now",
            "source.update",
            "source.create",
            "key.create");
    assertThat(entries.stream().map(e -> e.get("key_id").stringValue()))
        .containsExactly(
            "bootstrap-legacy-admin",
            keyId,
            keyId,
            keyId,
            keyId,
            keyId,
            keyId,
            "bootstrap-legacy-admin");
    assertThat(entries)
        .allSatisfy(e -> assertThat(e.get("tenant_id").stringValue()).isEqualTo(tenant));
    assertThat(entries.get(0).get("target_id").stringValue()).isEqualTo(keyId);
    assertThat(entries.get(1).get("target_id").stringValue()).isEqualTo(id.toString());
    assertThat(entries.get(2).get("target_id").stringValue()).isEqualTo(runId);
    assertThat(entries.get(3).get("changes").get("created").intValue()).isEqualTo(1);
    JsonNode update = entries.get(5).get("changes");
    assertThat(update.at("/changed/name/from").stringValue()).isEqualTo("Partner API");
    assertThat(update.at("/changed/name/to").stringValue()).isEqualTo("Partner API v2");
    assertThat(update.get("credentials").stringValue()).isEqualTo("replaced");
    JsonNode created = entries.get(6).get("changes").get("source");
    assertThat(created.get("url").stringValue())
        .isEqualTo("https://api.example.org/v1/items?api_key=***&page=1");
    assertThat(created.at("/config/headers/X-Api-Key").stringValue()).isEqualTo("***");
    assertThat(created.at("/config/sync_token_param").stringValue()).isEqualTo("syncToken");
    assertThat(created.get("has_credentials").booleanValue()).isTrue();
    assertThat(entries.get(7).get("changes").get("role").stringValue()).isEqualTo("write");
    assertThat(page.text())
        .doesNotContain(
            "QUERY-SECRET",
            "HEADER-SECRET",
            "CREDENTIAL-SECRET",
            ApiKeys.parse(key).orElseThrow().secret(),
            ApiClient.TOKEN + "\"");

    // newest first, paged by before
    List<Long> ids = new ArrayList<>();
    Long before = null;
    do {
      ApiClient.Response p =
          api.send(
              "GET",
              "/audit?tenant_id="
                  + tenant
                  + "&limit=3"
                  + (before == null ? "" : "&before=" + before),
              null,
              null,
              ApiClient.TOKEN);
      p.json().get("entries").forEach(e -> ids.add(e.get("id").longValue()));
      JsonNode next = p.json().get("next_before");
      before = next.isNull() ? null : next.longValue();
    } while (before != null);
    assertThat(ids)
        .containsExactlyElementsOf(entries.stream().map(e -> e.get("id").longValue()).toList());

    // clear 400s
    assertThat(api.send("GET", "/audit?limit=0&before=-2", null, null, ApiClient.TOKEN).errors())
        .containsExactly(
            "limit: must be a whole number from 1 to 500, was '0'",
            "before: must be a record id (a whole number ≥ 1): the previous page's next_before,"
                + " was '-2'");
    assertThat(api.send("GET", "/audit", null, null, ApiClient.READ_TOKEN).status()).isEqualTo(403);
  }

  private ApiClient.Response send(String key, String method, String path, String body, int status) {
    String type =
        body == null ? null : path.contains("ndjson") ? "application/x-ndjson" : ApiClient.JSON;
    ApiClient.Response r = api.send(method, path, type, body, key);
    assertThat(r.status()).as(method + " " + path + ": " + r.text()).isEqualTo(status);
    return r;
  }
}
