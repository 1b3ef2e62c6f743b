package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.demoweb.DemoWebSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

/**
 * The operator's edge of the real services, each its own process (one stack for all three checks):
 * actuator's {@code env}, {@code heapdump}, {@code configprops} (and {@code loggers}, {@code
 * threaddump}, metrics) are not reachable on any public port, metrics are on the management ports;
 * a key revoked on the scheduler is refused by the sink and the aggregator within a minute; and
 * nothing the run logged or answered holds a configured secret — the admin key, the credential
 * cipher key, the database password (a role of this test's own, so its password is a word no log
 * has otherwise), the tenant keys made here.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorEdgeIT {

  private static final String DB_USER = "freshet_edge_it";
  private static final String DB_PASSWORD = "edge-db-pw-" + Long.toHexString(System.nanoTime());

  static StackFixture stack;

  /** Every response body and header this test read, for the secrets check. */
  private static final List<String> seen = new CopyOnWriteArrayList<>();

  /** Tenant keys made in this test (their full text: a secret each). */
  private static final List<String> madeKeys = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    stack =
        StackFixture.start(
            "operator-edge",
            3,
            DemoWebSettings.defaults().withMisbehaving(false),
            1,
            List.of("CREATE ROLE " + DB_USER + " LOGIN SUPERUSER PASSWORD '" + DB_PASSWORD + "'"),
            Map.of("DATABASE_USER", DB_USER, "DATABASE_PASSWORD", DB_PASSWORD));
  }

  @AfterAll
  static void stop() {
    if (stack != null) {
      stack.close();
    }
  }

  /** Public port by service. */
  private static Map<String, Integer> publicPorts() {
    var s = stack.settings;
    Map<String, Integer> ports = new LinkedHashMap<>();
    ports.put("scheduler-producer", s.schedulerPort());
    ports.put("content-sink", s.sinkPort());
    ports.put("stats-aggregator", s.statsPort());
    ports.put("fetch-worker", s.workerPort());
    // the one service meant to be reachable from the internet (hubs call it back), when built
    if (stack.services.running().stream().anyMatch(p -> p.name().equals("push-receiver"))) {
      ports.put("push-receiver", s.pushPort());
    }
    return ports;
  }

  @Test
  @Order(1)
  void noPublicPortServesEnvHeapdumpConfigpropsOrMetricsAndTheManagementPortsServeMetrics()
      throws Exception {
    for (var e : publicPorts().entrySet()) {
      int port = e.getValue();
      for (String probe :
          new String[] {"/actuator/health/liveness", "/actuator/health/readiness"}) {
        var r = send("GET", port, probe, null, null);
        assertThat(r.statusCode()).as(e.getKey() + probe).isEqualTo(200);
        assertThat(r.body())
            .as(e.getKey() + probe + ": status only")
            .isEqualTo("{\"status\":\"UP\"}");
      }
      for (String path :
          new String[] {
            "/actuator/env",
            "/actuator/heapdump",
            "/actuator/configprops",
            "/actuator/loggers",
            "/actuator/threaddump",
            "/actuator/prometheus",
            "/actuator/metrics",
            "/actuator/health"
          }) {
        for (String key : new String[] {null, stack.token}) {
          var r = send("GET", port, path, null, key);
          assertThat(r.statusCode())
              .as(e.getKey() + " public port " + path + (key == null ? "" : " with the admin key"))
              .isIn(401, 403, 404);
        }
      }
      int management = stack.services.managementPort(port);
      assertThat(send("GET", management, "/actuator/prometheus", null, null).statusCode())
          .as(e.getKey() + " management port /actuator/prometheus")
          .isEqualTo(200);
      for (String path :
          new String[] {"/actuator/env", "/actuator/heapdump", "/actuator/configprops"}) {
        assertThat(send("GET", management, path, null, stack.token).statusCode())
            .as(e.getKey() + " management port " + path)
            .isEqualTo(404);
      }
    }
  }

  @Test
  @Order(2)
  void aKeyRevokedOnTheSchedulerIsRefusedByTheSinkAndTheAggregatorWithinAMinute() throws Exception {
    JsonNode created =
        StackFixture.JSON.readTree(
            send(
                    "POST",
                    stack.settings.schedulerPort(),
                    "/keys",
                    "{\"tenant_id\":\"" + StackFixture.TENANT + "\",\"role\":\"read\"}",
                    stack.token)
                .body());
    String key = created.get("key").asString();
    String id = created.get("id").asString();
    madeKeys.add(key);
    // the one answer that shows a key, on purpose: its creation's
    seen.removeIf(answer -> answer.contains(key) && answer.contains("/keys/" + id));
    String sourceId = stack.demoIdBySourceId.keySet().iterator().next();
    String sinkPath = "/tenants/" + StackFixture.TENANT + "/content?signal_type=informative";
    String statsPath = "/stats/" + sourceId;
    int sink = stack.settings.sinkPort();
    int stats = stack.settings.statsPort();
    boolean statsHasKeys = send("GET", stats, statsPath, null, null).statusCode() == 401;

    // the new key reaches both through the key topic (accepted: whatever the answer, not a 401)
    Awaitility.await("the sink knows the new key")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> send("GET", sink, sinkPath, null, key).statusCode() != 401);
    assertThat(send("GET", sink, sinkPath, null, key).statusCode()).isIn(200, 404);
    if (statsHasKeys) {
      Awaitility.await("the aggregator knows the new key")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> send("GET", stats, statsPath, null, key).statusCode() != 401);
    }

    Instant revoked = Instant.now();
    assertThat(
            send("DELETE", stack.settings.schedulerPort(), "/keys/" + id, null, stack.token)
                    .statusCode()
                / 100)
        .as("revoked")
        .isEqualTo(2);

    Awaitility.await("the sink refuses the revoked key")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> send("GET", sink, sinkPath, null, key).statusCode() == 401);
    var refused = send("GET", sink, sinkPath, null, key);
    assertThat(refused.body()).contains("API key " + id + " was revoked").doesNotContain(key);
    System.out.println(
        "content-sink refused the revoked key after "
            + Duration.between(revoked, Instant.now()).toMillis()
            + " ms");
    Assumptions.assumeTrue(
        statsHasKeys,
        "stats-aggregator answers without a key in this build (its API-key chain is not in yet):"
            + " the aggregator half of the revocation check is skipped");
    Awaitility.await("the aggregator refuses the revoked key")
        .atMost(Duration.ofSeconds(60).minus(Duration.between(revoked, Instant.now())))
        .pollInterval(Duration.ofMillis(250))
        .until(() -> send("GET", stats, statsPath, null, key).statusCode() == 401);
  }

  @Test
  @Order(3)
  void theRunsLogsAndResponsesHoldNoConfiguredSecret() throws Exception {
    Path secrets = stack.settings.home().resolve("secrets");
    Map<String, String> configured = new LinkedHashMap<>();
    configured.put("the admin key", stack.token);
    configured.put(
        "the credential cipher key", Files.readString(secrets.resolve("credentials-key")).trim());
    configured.put("the database password", DB_PASSWORD);
    for (int i = 0; i < madeKeys.size(); i++) {
      configured.put("tenant key " + i, madeKeys.get(i));
    }
    // a few more answers worth searching: errors and refusals carry the most context
    send("GET", stack.settings.schedulerPort(), "/keys", null, stack.token);
    send("GET", stack.settings.schedulerPort(), "/sources/nope", null, stack.token);
    send("GET", stack.settings.sinkPort(), "/content/999999999", null, stack.token);
    send("GET", stack.settings.sinkPort(), "/content/1", null, "Bearer-less " + stack.token);

    List<Path> logs;
    try (var files = Files.list(stack.settings.logs())) {
      logs = files.filter(Files::isRegularFile).toList();
    }
    assertThat(logs).as("the services' logs").hasSizeGreaterThanOrEqualTo(4);
    List<String> found = new ArrayList<>();
    for (Path log : logs) {
      String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
      configured.forEach(
          (what, secret) -> {
            if (text.contains(secret)) {
              found.add(what + " in " + log.getFileName());
            }
          });
    }
    assertThat(seen).as("responses read").hasSizeGreaterThan(20);
    for (String answer : seen) {
      configured.forEach(
          (what, secret) -> {
            if (answer.contains(secret)) {
              found.add(
                  what + " in a response: " + answer.substring(0, Math.min(200, answer.length())));
            }
          });
    }
    assertThat(found).isEmpty();
  }

  private static HttpResponse<String> send(
      String method, int port, String path, String body, String key) throws Exception {
    var request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(20))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (key != null) {
      request.header(
          "Authorization", key.startsWith("Bearer-less ") ? key.substring(12) : "Bearer " + key);
    }
    var response = StackFixture.HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    seen.add(response.headers().map() + "\n" + response.body());
    return response;
  }
}
