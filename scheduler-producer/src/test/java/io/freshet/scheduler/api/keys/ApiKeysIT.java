package io.freshet.scheduler.api.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.kit.security.ApiKeys;
import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

/**
 * Keys through the scheduler's API with the real broker and database: made by an admin, working
 * here once the key topic brought them back, listed without secrets, refused once revoked; the
 * topic carries states, never a secret; actuator closed on the public port; no secret in the log.
 */
@ExtendWith(OutputCaptureExtension.class)
class ApiKeysIT extends ApiItSupport {

  @Autowired KeyUsage usage;

  private ApiClient.Response create(String body) {
    return api.send("POST", "/keys", ApiClient.JSON, body, ApiClient.TOKEN);
  }

  @Test
  void aKeyMadeByAnAdminWorksForItsRoleIsListedWithoutItsSecretAndStopsOnceRevoked(
      CapturedOutput output) {
    ApiClient.Response created =
        create("{\"tenant_id\": \"%s\", \"role\": \"read\"}".formatted(tenant));
    assertThat(created.status()).isEqualTo(201);
    JsonNode body = created.json();
    String id = body.get("id").stringValue();
    String key = body.get("key").stringValue();
    assertThat(ApiKeys.parse(key)).isPresent();
    assertThat(body.get("tenant_id").stringValue()).isEqualTo(tenant);
    assertThat(body.get("role").stringValue()).isEqualTo("read");
    assertThat(created.headers().firstValue("Location"))
        .hasValueSatisfying(l -> l.endsWith("/keys/" + id));

    // back through the key topic: the scheduler authorises what the topic says, like every service
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> api.send("GET", "/sources?size=1", null, null, key).status() == 200);
    ApiClient.Response write =
        api.send("POST", "/tenants", ApiClient.JSON, "{\"id\": \"x\", \"tier\": \"pro\"}", key);
    assertThat(write.status()).isEqualTo(403);
    assertThat(api.send("GET", "/keys", null, null, key).status()).isEqualTo(403);

    usage.flush();
    ApiClient.Response list =
        api.send("GET", "/keys?tenant_id=" + tenant, null, null, ApiClient.TOKEN);
    assertThat(list.status()).isEqualTo(200);
    JsonNode listed = list.json().get("keys").get(0);
    assertThat(listed.get("id").stringValue()).isEqualTo(id);
    assertThat(listed.get("role").stringValue()).isEqualTo("read");
    assertThat(listed.get("created_at").isNull()).isFalse();
    assertThat(listed.get("last_used_at").isNull()).isFalse();
    assertThat(listed.get("revoked_at").isNull()).isTrue();
    assertThat(listed.has("key")).isFalse();
    assertThat(list.text()).doesNotContain(secretOf(key));

    ApiClient.Response revoked = api.send("DELETE", "/keys/" + id, null, null, ApiClient.TOKEN);
    assertThat(revoked.status()).isEqualTo(200);
    assertThat(revoked.json().get("revoked_at").isNull()).isFalse();
    await()
        .atMost(Duration.ofMinutes(1))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> api.send("GET", "/sources?size=1", null, null, key).status() == 401);
    assertThat(api.send("GET", "/sources?size=1", null, null, key).errors())
        .containsExactly("API key " + id + " was revoked");
    assertThat(api.send("DELETE", "/keys/" + id, null, null, ApiClient.TOKEN).status())
        .isEqualTo(200);

    // the topic has the key's states, never its secret
    List<byte[]> states = topicRecordsOf(id);
    assertThat(states).hasSizeGreaterThanOrEqualTo(2);
    for (byte[] state : states) {
      assertThat(new String(state, StandardCharsets.ISO_8859_1)).doesNotContain(secretOf(key));
    }
    assertThat(output.getAll())
        .contains("API key " + id + " created")
        .doesNotContain(secretOf(key))
        .doesNotContain(ApiClient.TOKEN)
        .doesNotContain(ApiClient.READ_TOKEN);
  }

  @Test
  void onlyAnAdminMakesKeysAndEachRoleHasItsTenantRule() {
    String write =
        create("{\"tenant_id\": \"%s\", \"role\": \"write\"}".formatted(tenant))
            .json()
            .get("key")
            .stringValue();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> api.send("GET", "/sources?size=1", null, null, write).status() == 200);
    assertThat(
            api.send(
                    "POST",
                    "/keys",
                    ApiClient.JSON,
                    "{\"tenant_id\": \"%s\", \"role\": \"read\"}".formatted(tenant),
                    write)
                .status())
        .isEqualTo(403);
    assertThat(
            api.send("POST", "/keys", ApiClient.JSON, "{\"role\": \"read\"}", ApiClient.READ_TOKEN)
                .status())
        .isEqualTo(403);

    assertThat(create("{\"role\": \"owner\", \"tenant_id\": \"%s\"}".formatted(tenant)).errors())
        .containsExactly("role: must be one of read, write, admin");
    assertThat(create("{\"role\": \"write\"}").errors())
        .containsExactly("tenant_id: is required for a write key");
    assertThat(create("{\"role\": \"admin\", \"tenant_id\": \"%s\"}".formatted(tenant)).errors())
        .containsExactly("tenant_id: an admin key acts for every tenant; leave tenant_id out");
    assertThat(create("{\"role\": \"read\", \"tenant_id\": \"nobody-here\"}").errors())
        .containsExactly("tenant_id: no tenant 'nobody-here'");
    assertThat(
            create(
                    "{\"role\": \"read\", \"tenant_id\": \"%s\", \"expires_at\": \"2001-01-01T00:00:00Z\"}"
                        .formatted(tenant))
                .errors())
        .containsExactly("expires_at: must be in the future");
    assertThat(api.send("DELETE", "/keys/nosuchkey", null, null, ApiClient.TOKEN).status())
        .isEqualTo(404);
  }

  @Test
  void aDeletedTenantsKeysAreRevoked() {
    String other = "t-" + UUID.randomUUID().toString().substring(0, 8);
    tenant(other, "free");
    String id =
        create("{\"tenant_id\": \"%s\", \"role\": \"read\"}".formatted(other))
            .json()
            .get("id")
            .stringValue();

    assertThat(api.send("DELETE", "/tenants/" + other, null, null, ApiClient.TOKEN).status())
        .isEqualTo(204);

    assertThat(
            api.send("GET", "/keys/" + id, null, null, ApiClient.TOKEN)
                .json()
                .get("revoked_at")
                .isNull())
        .isFalse();
  }

  @Test
  void onThePublicPortOnlyTheHealthProbesAreOpenAndEnvHeapdumpConfigpropsAreNotThere() {
    for (String path : new String[] {"/actuator/health/liveness", "/actuator/health/readiness"}) {
      assertThat(api.send("GET", path, null, null, null).status()).as(path).isIn(200, 503);
    }
    for (String path : new String[] {"/actuator/prometheus", "/actuator/metrics", "/actuator"}) {
      assertThat(api.send("GET", path, null, null, null).status()).as(path).isEqualTo(401);
      assertThat(api.send("GET", path, null, null, ApiClient.READ_TOKEN).status())
          .as(path)
          .isEqualTo(403);
    }
    for (String path :
        new String[] {
          "/actuator/env",
          "/actuator/heapdump",
          "/actuator/configprops",
          "/actuator/loggers",
          "/actuator/threaddump"
        }) {
      assertThat(api.send("GET", path, null, null, null).status()).as(path).isEqualTo(401);
      assertThat(api.send("GET", path, null, null, ApiClient.TOKEN).status())
          .as(path)
          .isEqualTo(404);
    }
  }

  private static String secretOf(String key) {
    return ApiKeys.parse(key).orElseThrow().secret();
  }

  /** Every value of the key topic under {@code id}. */
  private List<byte[]> topicRecordsOf(String id) {
    return records(topics.apiKeys().name()).stream()
        .filter(r -> id.equals(r.key()))
        .map(r -> r.value())
        .toList();
  }
}
