package io.freshet.sink.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.kit.security.ApiKeys;
import io.freshet.scheduler.SchedulerApplication;
import io.freshet.sink.testing.ApiClient;
import io.freshet.sink.testing.SinkItSupport;
import io.freshet.testsupport.Infrastructure;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One identity across the services, with the real broker, registry and PostgreSQL and both services
 * in this JVM (profile {@code e2e} puts scheduler-producer on the test classpath): a key made on
 * the scheduler authorises here, and once revoked there is refused here within a minute, without
 * either service calling the other — only the key topic joins them.
 */
@ExtendWith(OutputCaptureExtension.class)
class KeyReplicationEndToEndIT extends SinkItSupport {

  private static final String SCHEDULER_ADMIN = "e2e-scheduler-bootstrap-admin";
  private static final String SINK_ADMIN = "it-token";

  private static ConfigurableApplicationContext scheduler;
  private static int schedulerPort;

  @LocalServerPort int port;

  private final HttpClient http = HttpClient.newHttpClient();

  /**
   * The scheduler's migrations are on this classpath too: the sink takes its own from its sources.
   */
  @DynamicPropertySource
  static void ownMigrationsOnly(DynamicPropertyRegistry registry) {
    registry.add(
        "spring.flyway.locations",
        () -> "filesystem:" + Path.of("src/main/resources/db/migration").toAbsolutePath());
  }

  @BeforeAll
  static void startScheduler() throws Exception {
    try (var s = new ServerSocket(0)) {
      schedulerPort = s.getLocalPort();
    }
    String db = Infrastructure.postgres().createDatabase("keys_e2e");
    // This module's application.yml shadows the scheduler's on a shared classpath: its settings
    // that matter here are given explicitly. Both modules' migrations are classpath:db/migration,
    // so the scheduler's are taken from its sources.
    scheduler =
        new SpringApplicationBuilder(SchedulerApplication.class)
            .run(
                "--server.port=" + schedulerPort,
                "--management.server.port=0",
                "--spring.datasource.url=" + Infrastructure.postgres().jdbcUrl(db),
                "--spring.datasource.username=" + Infrastructure.postgres().username(),
                "--spring.datasource.password=" + Infrastructure.postgres().password(),
                "--spring.datasource.hikari.schema=scheduler",
                "--spring.flyway.schemas=scheduler",
                "--spring.flyway.default-schema=scheduler",
                "--spring.flyway.locations=filesystem:"
                    + Path.of("../scheduler-producer/src/main/resources/db/migration")
                        .toAbsolutePath(),
                "--spring.kafka.consumer.group-id=e2e-scheduler-" + UUID.randomUUID(),
                "--spring.kafka.consumer.auto-offset-reset=earliest",
                "--freshet.security.admin-key=" + SCHEDULER_ADMIN,
                "--freshet.api.token=",
                "--freshet.credentials.key=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
                "--freshet.kafka.registry-url=" + System.getProperty("freshet.registry.url"),
                "--freshet.kafka.auto-register=true",
                "--freshet.kafka.partitions=4",
                "--freshet.scheduler.claiming-enabled=false");
  }

  @AfterAll
  static void stopScheduler() {
    if (scheduler != null) {
      scheduler.close();
    }
  }

  private HttpResponse<String> send(int port, String method, String path, String body, String key)
      throws Exception {
    var request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (key != null) {
      request.header("Authorization", "Bearer " + key);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private String status(int port, String path, String key) {
    try {
      var r = send(port, "GET", path, null, key);
      return r.statusCode() + " " + r.body();
    } catch (Exception e) {
      return e.toString();
    }
  }

  @Test
  void aKeyMadeOnTheSchedulerWorksHereAndIsRefusedHereWithinAMinuteOfItsRevocation(
      CapturedOutput output) throws Exception {
    String tenant = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
    assertThat(
            send(
                    schedulerPort,
                    "POST",
                    "/tenants",
                    "{\"id\": \"" + tenant + "\", \"tier\": \"pro\"}",
                    SCHEDULER_ADMIN)
                .statusCode())
        .isEqualTo(201);
    var created =
        send(
            schedulerPort,
            "POST",
            "/keys",
            "{\"tenant_id\": \"" + tenant + "\", \"role\": \"read\"}",
            SCHEDULER_ADMIN);
    assertThat(created.statusCode()).isEqualTo(201);
    JsonNode body = JsonMapper.shared().readTree(created.body());
    String id = body.get("id").stringValue();
    String key = body.get("key").stringValue();
    var sink = new ApiClient(port, key);
    String path = "/tenants/" + tenant + "/content?signal_type=event";

    // the sink has no content of the tenant: 404 once the key is known, 401 before
    assertThat(sink.getAs(path, null).status()).isEqualTo(401);
    await()
        .atMost(Duration.ofMinutes(1))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(
            () ->
                assertThat(sink.get(path).status())
                    .as(
                        () ->
                            "sink: "
                                + sink.get(path).text()
                                + "; the same key on the scheduler: "
                                + status(schedulerPort, "/tenants/" + tenant, key)
                                + "; the key there: "
                                + status(schedulerPort, "/keys/" + id, SCHEDULER_ADMIN))
                    .isEqualTo(404));
    assertThat(sink.post("/content/retention", "{}").status()).isEqualTo(403);

    long revokedAt = System.nanoTime();
    assertThat(send(schedulerPort, "DELETE", "/keys/" + id, null, SCHEDULER_ADMIN).statusCode())
        .isEqualTo(200);
    await()
        .atMost(Duration.ofMinutes(1))
        .pollInterval(Duration.ofMillis(200))
        .untilAsserted(() -> assertThat(sink.get(path).status()).isEqualTo(401));
    System.out.printf(
        "revocation of %s reached the sink in %d ms%n",
        id, Duration.ofNanos(System.nanoTime() - revokedAt).toMillis());
    var refused = sink.get(path);
    assertThat(refused.json().get("errors").get(0).stringValue())
        .isEqualTo("API key " + id + " was revoked");

    String secret = ApiKeys.parse(key).orElseThrow().secret();
    assertThat(output.getAll())
        .doesNotContain(secret)
        .doesNotContain(SCHEDULER_ADMIN)
        .doesNotContain(SINK_ADMIN);
  }

  @Test
  void onTheSinksPublicPortEnvHeapdumpAndConfigpropsAreNotThere() throws Exception {
    for (String path : new String[] {"/actuator/health/liveness", "/actuator/health/readiness"}) {
      assertThat(send(port, "GET", path, null, null).statusCode()).as(path).isIn(200, 503);
    }
    for (String path : new String[] {"/actuator/prometheus", "/actuator/metrics"}) {
      assertThat(send(port, "GET", path, null, null).statusCode()).as(path).isEqualTo(401);
    }
    for (String path :
        new String[] {
          "/actuator/env",
          "/actuator/heapdump",
          "/actuator/configprops",
          "/actuator/loggers",
          "/actuator/threaddump"
        }) {
      assertThat(send(port, "GET", path, null, null).statusCode()).as(path).isEqualTo(401);
      assertThat(send(port, "GET", path, null, SINK_ADMIN).statusCode()).as(path).isEqualTo(404);
      assertThat(send(schedulerPort, "GET", path, null, SCHEDULER_ADMIN).statusCode())
          .as("scheduler " + path)
          .isEqualTo(404);
    }
  }
}
