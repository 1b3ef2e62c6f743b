package io.freshet.scheduler.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.scheduler.testing.SchedulerItSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * Readiness once stayed UP while PostgreSQL was down and {@code /actuator/health} hung for the
 * pool's timeout. It must say "cannot claim and emit" and answer within a second.
 */
@TestPropertySource(
    properties = {"freshet.health.probe-interval=200ms", "freshet.health.probe-timeout=500ms"})
class ReadinessIT extends SchedulerItSupport {

  @LocalServerPort int port;
  @LocalManagementPort int managementPort; // health with details: on the management port

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void readinessIsDownWithinSecondsOfADatabaseOutageAnswersAtOnceAndRecovers() {
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> get("/actuator/health/readiness").code == 200);
    assertThat(get("/actuator/health").body)
        .as("the blocking JDBC indicator is replaced by the probed one")
        .contains("\"database\"")
        .doesNotContain("\"db\"");

    List<Answer> during = new ArrayList<>();
    withDatabaseDown(
        () ->
            await()
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(200))
                .until(
                    () -> {
                      Answer a = get("/actuator/health/readiness");
                      during.add(a);
                      return a.code == 503 && a.body.contains("database");
                    }));

    assertThat(during).allSatisfy(a -> assertThat(a.took).isLessThan(Duration.ofSeconds(1)));
    Answer health = during.getLast();
    assertThat(health.body).contains("\"status\":\"DOWN\"");
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> get("/actuator/health/readiness").code == 200);
  }

  private record Answer(int code, String body, Duration took) {}

  private Answer get(String path) {
    long t0 = System.nanoTime();
    try {
      var response =
          http.send(
              HttpRequest.newBuilder(URI.create("http://localhost:" + managementPort + path))
                  .timeout(Duration.ofSeconds(30))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return new Answer(
          response.statusCode(), response.body(), Duration.ofNanos(System.nanoTime() - t0));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
