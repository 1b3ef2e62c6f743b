package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The kit's chain in a small web application without a broker: 401 and 403 as problems, roles, the
 * principal, the bootstrap and deprecated keys, and actuator closed on the public port.
 */
@SpringBootTest(
    classes = ApiKeyChainTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "freshet.security.admin-key=" + ApiKeyChainTest.ADMIN_KEY,
      "freshet.security.key-topic=false",
      "freshet.api.token=s3cret",
      "freshet.api.read-token=r3ad",
      "management.endpoints.web.exposure.include=health,info,prometheus,metrics",
      "management.endpoint.health.probes.enabled=true",
      "spring.autoconfigure.exclude="
          + "io.freshet.kit.kafka.KafkaKitAutoConfiguration,"
          + "io.freshet.kit.ops.HealthKitAutoConfiguration,"
          + "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration"
    })
@ExtendWith(OutputCaptureExtension.class)
class ApiKeyChainTest {

  static final String ADMIN_KEY = "fk_bootstrapadmin01_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    Things things() {
      return new Things();
    }

    @Bean
    ApiKeyRules adminOnlyKeys() {
      return rules -> rules.requestMatchers("/keys", "/keys/**").hasRole("ADMIN");
    }
  }

  @RestController
  static class Things {
    @GetMapping("/things")
    String list(@AuthenticationPrincipal KeyPrincipal caller) {
      return caller.keyId() + "|" + caller.tenantId() + "|" + caller.role().wireName();
    }

    @PostMapping("/things")
    String create() {
      return "created";
    }

    @GetMapping("/keys")
    String keys() {
      return "keys";
    }
  }

  @LocalServerPort int port;
  @Autowired KeyDirectory directory;

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> send(String method, String path, String authorization)
      throws Exception {
    var request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .method(method, HttpRequest.BodyPublishers.noBody());
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private ApiKeys.Generated key(String tenant, Role role, Instant revoked) {
    var key = ApiKeys.generate();
    directory.put(
        new KeyState(key.id(), tenant, role, key.secretSha256(), Instant.now(), null, revoked));
    return key;
  }

  @Test
  void withoutOrWithAWrongKeyIs401WithAChallengeAndAProblem() throws Exception {
    var revoked = key("acme", Role.WRITE, Instant.now());
    for (String auth :
        new String[] {
          null, "Bearer nope", "Basic czNjcmV0", "Bearer s3cret2", "Bearer " + revoked.text()
        }) {
      for (String method : new String[] {"GET", "POST"}) {
        var response = send(method, "/things", auth);

        assertThat(response.statusCode()).as(method + " " + auth).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).contains("Bearer");
        assertThat(response.headers().firstValue("Content-Type"))
            .contains("application/problem+json");
        assertThat(response.body())
            .startsWith(
                "{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":")
            .contains("\"errors\":[");
      }
    }
    assertThat(send("GET", "/things", "Bearer " + revoked.text()).body())
        .contains("API key " + revoked.id() + " was revoked")
        .doesNotContain(revoked.text());
  }

  @Test
  void aKeyIsItsTenantAndRoleInAnyCaseOfTheScheme() throws Exception {
    var write = key("acme", Role.WRITE, null);

    var read = send("GET", "/things", "bearer " + write.text());
    assertThat(read.statusCode()).isEqualTo(200);
    assertThat(read.body()).isEqualTo(write.id() + "|acme|write");
    assertThat(send("POST", "/things", "Bearer " + write.text()).statusCode()).isEqualTo(200);
    assertThat(send("HEAD", "/things", "Bearer " + write.text()).statusCode()).isEqualTo(200);
  }

  @Test
  void aReadKeyNeverWritesAndOnlyAdminsReachAdminRules() throws Exception {
    var read = key("acme", Role.READ, null);
    var write = key("acme", Role.WRITE, null);

    assertThat(send("GET", "/things", "Bearer " + read.text()).statusCode()).isEqualTo(200);
    var refused = send("POST", "/things", "Bearer " + read.text());
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
    assertThat(refused.body()).contains("a read key never writes");
    assertThat(send("GET", "/keys", "Bearer " + write.text()).statusCode()).isEqualTo(403);
    assertThat(send("GET", "/keys", "Bearer " + ADMIN_KEY).statusCode()).isEqualTo(200);
  }

  @Test
  void theBootstrapKeyAndTheDeprecatedTokensWork() throws Exception {
    assertThat(send("GET", "/things", "Bearer " + ADMIN_KEY).body())
        .isEqualTo("bootstrap-admin|null|admin");
    assertThat(send("POST", "/things", "Bearer s3cret").statusCode()).isEqualTo(200);
    assertThat(send("GET", "/things", "Bearer r3ad").body())
        .isEqualTo("bootstrap-legacy-read|null|read");
    assertThat(send("POST", "/things", "Bearer r3ad").statusCode()).isEqualTo(403);
  }

  @Test
  void onlyTheHealthProbesAndTheErrorPageAreOpen(CapturedOutput output) throws Exception {
    for (String path :
        new String[] {
          "/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"
        }) {
      assertThat(send("GET", path, null).statusCode()).as(path).isEqualTo(200);
      assertThat(send("GET", path, "Bearer nope").statusCode()).as(path).isEqualTo(200);
    }
    for (String path : new String[] {"/actuator/metrics", "/actuator", "/actuator/info"}) {
      assertThat(send("GET", path, null).statusCode()).as(path).isEqualTo(401);
      var write = key("acme", Role.WRITE, null);
      assertThat(send("GET", path, "Bearer " + write.text()).statusCode()).as(path).isEqualTo(403);
    }
    for (String path :
        new String[] {
          "/actuator/env",
          "/actuator/heapdump",
          "/actuator/configprops",
          "/actuator/loggers",
          "/actuator/threaddump"
        }) {
      assertThat(send("GET", path, null).statusCode()).as(path).isEqualTo(401);
      assertThat(send("GET", path, "Bearer " + ADMIN_KEY).statusCode()).as(path).isEqualTo(404);
    }
    assertThat(send(HttpMethod.OPTIONS.name(), "/things", null).statusCode()).isNotEqualTo(401);
    assertThat(send("GET", "/v3/api-docs", null).statusCode()).isEqualTo(200);
    // deny by default: a path no rule names needs a key
    assertThat(send("POST", "/actuatorx", null).statusCode()).isEqualTo(401);
    assertThat(send("GET", "/nothing-here", null).statusCode()).isEqualTo(401);
    assertThat(output.getAll())
        .doesNotContain(ADMIN_KEY)
        .doesNotContain("s3cret")
        .doesNotContain("generated security password");
  }
}
