package io.freshet.scheduler.api.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ApiSecurityIT extends ApiItSupport {

  @Test
  void writesWithoutTheTokenOrWithAWrongOneAre401AndChangeNothing() {
    String tenant = api.newTenant("free");
    UUID id = api.newFeed(tenant, "Guarded", "https://guarded.example.org/feed");
    String create =
        "{\"tenant_id\": \"%s\", \"name\": \"x\", \"connector\": \"feed\", \"url\": \"https://x.org/\"}"
            .formatted(tenant);

    for (String token : new String[] {null, "wrong-token", "it-token-but-longer", ""}) {
      for (String[] call :
          new String[][] {
            {"POST", "/sources", create},
            {"PUT", "/sources/" + id, create},
            {"DELETE", "/sources/" + id, null},
            {"POST", "/sources/" + id + "/fetch", null},
            {"POST", "/sources/" + id + "/disable", null},
            {"POST", "/sources/import/ndjson?tenant_id=" + tenant, create},
            {"POST", "/sources/import/opml?tenant_id=" + tenant, create},
            {"DELETE", "/tenants/" + tenant, null},
            {"POST", "/tenants", "{\"id\": \"intruder\", \"tier\": \"pro\"}"},
            {"PUT", "/tenants/" + tenant, "{\"tier\": \"pro\"}"},
            {"POST", "/runs", "{}"}
          }) {
        ApiClient.Response r =
            api.send(call[0], call[1], call[2] == null ? null : "application/json", call[2], token);

        assertThat(r.status()).as(call[0] + " " + call[1] + " with " + token).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(r.json().get("status").intValue()).isEqualTo(401);
        assertThat(r.errors()).hasSize(1);
      }
    }

    JsonNode after = api.get("/sources/" + id).json();
    assertThat(after.get("name").stringValue()).isEqualTo("Guarded");
    assertThat(after.get("enabled").booleanValue()).isTrue();
    assertThat(after.get("schedule").get("manual_requested").booleanValue()).isFalse();
    assertThat(api.get("/tenants/" + tenant).json().get("tier").stringValue()).isEqualTo("free");
    assertThat(
            jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE tenant_id = ?")
                .param(tenant)
                .query(Long.class)
                .single())
        .isEqualTo(1);
  }

  @Test
  void readsNeedTheReadOrTheWriteTokenAndTheReadTokenCannotWrite() {
    String tenant = api.newTenant("free");
    UUID id = api.newFeed(tenant, "Private", "https://private.example.org/feed");

    for (String path : new String[] {"/sources?size=1", "/sources/" + id, "/tenants/" + tenant}) {
      assertThat(api.send("GET", path, null, null, null).status()).as(path).isEqualTo(401);
      assertThat(api.send("GET", path, null, null, "wrong").status()).as(path).isEqualTo(401);
      assertThat(api.send("GET", path, null, null, ApiClient.READ_TOKEN).status()).isEqualTo(200);
      assertThat(api.send("GET", path, null, null, ApiClient.TOKEN).status()).isEqualTo(200);
    }
    ApiClient.Response write =
        api.send("POST", "/sources/" + id + "/disable", null, null, ApiClient.READ_TOKEN);
    assertThat(write.status()).isEqualTo(403);
    assertThat(api.get("/sources/" + id).json().get("enabled").booleanValue()).isTrue();
    assertThat(api.send("GET", "/actuator/health/liveness", null, null, null).status())
        .isEqualTo(200);
    assertThat(api.send("GET", "/v3/api-docs", null, null, null).status()).isEqualTo(200);
  }

  @Test
  void secretsInUrlAndConfigAreShownMaskedAndTheMaskIsNeverStored() {
    String tenant = api.newTenant("free");
    ApiClient.Response created =
        api.post(
            "/sources",
            """
            {"tenant_id": "%s", "name": "Keyed", "connector": "json",
             "url": "https://api.example.org/items?page=1&api_key=K-123&sig=S-456",
             "config": {"headers": {"X-Api-Key": "H-789", "Accept": "application/json"}}}
            """
                .formatted(tenant));
    assertThat(created.status()).isEqualTo(201);
    UUID id = created.id();

    JsonNode shown = api.get("/sources/" + id).json();
    assertThat(shown.get("url").stringValue())
        .isEqualTo("https://api.example.org/items?page=1&api_key=***&sig=***");
    assertThat(shown.get("config").get("headers").get("X-Api-Key").stringValue()).isEqualTo("***");
    assertThat(shown.get("config").get("headers").get("Accept").stringValue())
        .isEqualTo("application/json");
    assertThat(api.get("/sources?tenant_id=" + tenant).text()).doesNotContain("K-123", "H-789");
    assertThat(created.text()).doesNotContain("K-123", "S-456", "H-789");

    // GET, edit the name, PUT back what was read: accepted, the stored secrets kept
    String back =
        "{\"name\": \"Renamed\", \"url\": %s, \"config\": %s}"
            .formatted(shown.get("url"), shown.get("config"));
    ApiClient.Response put = api.put("/sources/" + id, back);

    assertThat(put.status()).as(put.text()).isEqualTo(200);
    assertThat(put.json().get("name").stringValue()).isEqualTo("Renamed");
    assertThat(put.text()).doesNotContain("K-123", "S-456", "H-789");
    assertThat(storedUrlAndConfig(id)).contains("K-123", "S-456", "H-789").doesNotContain("***");

    // the whole GET body written back is accepted too (its read-only fields are ignored)
    ApiClient.Response whole = api.put("/sources/" + id, api.get("/sources/" + id).text());
    assertThat(whole.status()).as(whole.text()).isEqualTo(200);
    assertThat(storedUrlAndConfig(id)).contains("K-123", "S-456", "H-789").doesNotContain("***");

    // a stored secret never follows the URL to another server: the mask there is refused
    ApiClient.Response moved =
        api.put(
            "/sources/" + id,
            "{\"url\": \"https://elsewhere.example.net/items?api_key=***\", \"config\": %s}"
                .formatted(shown.get("config")));
    assertThat(moved.status()).isEqualTo(400);
    assertThat(moved.errors())
        .anySatisfy(m -> assertThat(m).startsWith("url: query parameter api_key is the redaction"))
        .anySatisfy(m -> assertThat(m).startsWith("config.headers.X-Api-Key: is the redaction"));
    assertThat(storedUrlAndConfig(id)).contains("K-123", "S-456", "H-789").doesNotContain("***");
  }

  private String storedUrlAndConfig(UUID id) {
    return jdbc.sql("SELECT url || config_json::text FROM scheduler.sources WHERE id = ?")
        .param(id)
        .query(String.class)
        .single();
  }

  @Test
  void theOpenApiDocumentListsTheEndpointsAndTheBearerScheme() {
    ApiClient.Response docs = api.get("/v3/api-docs");

    assertThat(docs.status()).isEqualTo(200);
    JsonNode doc = docs.json();
    assertThat(doc.get("info").get("title").stringValue()).isEqualTo("Freshet scheduler API");
    JsonNode paths = doc.get("paths");
    assertThat(paths.propertyNames())
        .contains(
            "/sources",
            "/sources/{id}",
            "/sources/{id}/fetch",
            "/sources/{id}/enable",
            "/sources/{id}/disable",
            "/sources/import/ndjson",
            "/sources/import/opml",
            "/tenants",
            "/tenants/{id}");
    assertThat(
            doc.get("components").get("securitySchemes").get("bearer").get("scheme").stringValue())
        .isEqualTo("bearer");
    assertThat(doc.get("security").get(0).has("bearer")).isTrue();
    JsonNode view = doc.get("components").get("schemas").get("SourceView").get("properties");
    assertThat(view.propertyNames()).contains("tenant_id", "has_credentials", "schedule");
    assertThat(view.propertyNames()).doesNotContain("credentials", "tenantId");
  }
}
