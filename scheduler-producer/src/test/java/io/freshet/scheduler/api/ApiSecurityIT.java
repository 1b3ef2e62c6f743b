package io.freshet.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.testsupport.RealInfrastructure;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;

@RealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("it")
class ApiSecurityIT {

  @LocalServerPort int port;
  @Autowired JdbcClient jdbc;

  ApiClient api;

  @BeforeEach
  void setUp() {
    api = new ApiClient(port);
  }

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
            {"POST", "/sources/import?tenant_id=" + tenant, create},
            {"POST", "/tenants", "{\"id\": \"intruder\", \"tier\": \"pro\"}"},
            {"PUT", "/tenants/" + tenant, "{\"tier\": \"pro\"}"},
            {"POST", "/runs", "{}"}
          }) {
        ApiClient.Response r =
            api.send(call[0], call[1], call[2] == null ? null : "application/json", call[2], token);

        assertThat(r.status()).as(call[0] + " " + call[1] + " with " + token).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(r.json().get("status").intValue()).isEqualTo(401);
        assertThat(r.messages()).hasSize(1);
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
  void readsNeedNoToken() {
    assertThat(api.get("/sources?size=1").status()).isEqualTo(200);
    assertThat(api.get("/actuator/health").status()).isEqualTo(200);
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
            "/sources/import",
            "/tenants",
            "/tenants/{id}");
    assertThat(
            doc.get("components").get("securitySchemes").get("bearer").get("scheme").stringValue())
        .isEqualTo("bearer");
    assertThat(paths.get("/sources").get("post").get("security")).isNotNull();
    assertThat(paths.get("/sources").get("get").get("security")).isNull();
    JsonNode view = doc.get("components").get("schemas").get("SourceView").get("properties");
    assertThat(view.propertyNames()).contains("tenant_id", "has_credentials", "schedule");
    assertThat(view.propertyNames()).doesNotContain("credentials", "tenantId");
  }
}
