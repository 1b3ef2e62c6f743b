package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A service as the services are configured (application.yml's management block): actuator on a
 * management port of its own, only liveness and readiness on the public port, {@code env}, {@code
 * configprops}, {@code heapdump}, {@code loggers}, {@code threaddump} nowhere; and the fair-use
 * limit — 429 with {@code Retry-After} per key, per address without one.
 */
@SpringBootTest(
    classes = OperatorEndpointsTest.App.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
      "freshet.security.admin-key=" + OperatorEndpointsTest.ADMIN_KEY,
      "freshet.security.key-topic=false",
      "freshet.security.rate-limit.tenant=5/1h",
      "freshet.security.rate-limit.anonymous=20/1h",
      "freshet.security.rate-limit.tenants.bigco=pro",
      // every service's application.yml names a port of its own; random here
      "management.server.port=0",
      "management.endpoints.web.exposure.include=health,info,prometheus,metrics",
      "management.endpoints.web.exposure.exclude=env,configprops,heapdump,loggers,threaddump",
      "management.endpoint.health.show-details=always",
      "management.endpoint.health.probes.enabled=true",
      "management.endpoint.health.group.readiness.include=readinessState,apiKeys",
      "spring.autoconfigure.exclude="
          + "io.freshet.kit.kafka.KafkaKitAutoConfiguration,"
          + "io.freshet.kit.ops.HealthKitAutoConfiguration,"
          + "org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration"
    })
@ExtendWith(OutputCaptureExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the anonymous bucket's test last
class OperatorEndpointsTest {

  static final String ADMIN_KEY = "fk_bootstrapadmin02_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {
    @Bean
    Things things() {
      return new Things();
    }
  }

  @RestController
  static class Things {
    @GetMapping("/things")
    String list() {
      return "things";
    }
  }

  @LocalServerPort int port;
  @LocalManagementPort int managementPort;
  @Autowired KeyDirectory directory;

  private final HttpClient http = HttpClient.newHttpClient();

  private HttpResponse<String> get(int port, String path, String key) throws Exception {
    var request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
    if (key != null) {
      request.header("Authorization", "Bearer " + key);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String key(String tenant, Role role) {
    var key = ApiKeys.generate();
    directory.put(
        new KeyState(key.id(), tenant, role, key.secretSha256(), Instant.now(), null, null));
    return key.text();
  }

  @Test
  void thePublicPortHasOnlyLivenessAndReadinessWithoutDetails() throws Exception {
    assertThat(managementPort).isNotEqualTo(port);
    for (String path : new String[] {"/actuator/health/liveness", "/actuator/health/readiness"}) {
      var r = get(port, path, null);
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.body()).as(path).isEqualTo("{\"status\":\"UP\"}");
    }
    for (String path :
        new String[] {
          "/actuator",
          "/actuator/health",
          "/actuator/info",
          "/actuator/metrics",
          "/actuator/prometheus",
          "/actuator/env",
          "/actuator/heapdump",
          "/actuator/configprops",
          "/actuator/loggers",
          "/actuator/threaddump"
        }) {
      assertThat(get(port, path, null).statusCode()).as(path).isIn(401, 404);
      assertThat(get(port, path, ADMIN_KEY).statusCode())
          .as(path + " with the admin key: not there")
          .isEqualTo(404);
    }
  }

  @Test
  void theManagementPortHasMetricsAndHealthButNeverEnvConfigpropsHeapdumpLoggersThreaddump()
      throws Exception {
    assertThat(get(managementPort, "/actuator/prometheus", null).statusCode()).isEqualTo(200);
    assertThat(get(managementPort, "/actuator/metrics", null).statusCode()).isEqualTo(200);
    var readiness = get(managementPort, "/actuator/health/readiness", null);
    assertThat(readiness.statusCode()).isEqualTo(200);
    assertThat(readiness.body()).contains("\"apiKeys\"").contains("\"keyTopic\":\"not read\"");
    for (String path :
        new String[] {
          "/actuator/env",
          "/actuator/heapdump",
          "/actuator/configprops",
          "/actuator/loggers",
          "/actuator/threaddump"
        }) {
      assertThat(get(managementPort, path, null).statusCode()).as(path).isEqualTo(404);
      assertThat(get(managementPort, path, ADMIN_KEY).statusCode()).as(path).isEqualTo(404);
    }
    assertThat(get(managementPort, "/things", ADMIN_KEY).statusCode())
        .as("the API is not on the management port")
        .isEqualTo(404);
  }

  @Test
  void aKeyPastItsLimitIs429WithRetryAfterAndOtherKeysAreNotHeldBack(CapturedOutput output)
      throws Exception {
    String acme = key("acme", Role.READ);
    String globex = key("globex", Role.READ);
    String bigco = key("bigco", Role.READ);
    for (int i = 0; i < 5; i++) {
      assertThat(get(port, "/things", acme).statusCode()).isEqualTo(200);
    }

    var refused = get(port, "/things", acme);

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After"))
        .hasValueSatisfying(v -> assertThat(Long.parseLong(v)).isBetween(1L, 720L));
    assertThat(refused.headers().firstValue("Content-Type")).contains("application/problem+json");
    assertThat(refused.body())
        .contains("\"status\":429")
        .contains("exceeded the rate limit of 5 requests per PT1H")
        .doesNotContain(acme);
    assertThat(get(port, "/things", globex).statusCode()).isEqualTo(200);
    for (int i = 0; i < 10; i++) {
      assertThat(get(port, "/things", bigco).statusCode())
          .as("a tenant of tier pro has the pro limit")
          .isEqualTo(200);
    }
    for (int i = 0; i < 20; i++) {
      assertThat(get(port, "/things", ADMIN_KEY).statusCode()).isEqualTo(200);
    }
    // probes and the management port are never counted
    for (int i = 0; i < 20; i++) {
      assertThat(get(port, "/actuator/health/readiness", acme).statusCode()).isEqualTo(200);
      assertThat(get(managementPort, "/actuator/prometheus", null).statusCode()).isEqualTo(200);
    }
    assertThat(output.getAll()).doesNotContain(acme).doesNotContain(ADMIN_KEY);
  }

  @Test
  @Order(Integer.MAX_VALUE)
  void withoutAValidKeyTheRemoteAddressIsCounted() throws Exception {
    int refused = 0;
    for (int i = 0; i < 40; i++) {
      int status = get(port, "/things", i % 2 == 0 ? null : "fk_nope").statusCode();
      assertThat(status).isIn(401, 429);
      if (status == 429) {
        refused++;
      }
    }
    // 20 per hour for this address, shared with the other tests' anonymous requests
    assertThat(refused).isGreaterThanOrEqualTo(20);
  }
}
