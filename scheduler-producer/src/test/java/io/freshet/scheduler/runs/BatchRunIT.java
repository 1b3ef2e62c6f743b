package io.freshet.scheduler.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.FetchRequested;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** ADR 0009's batch run: due-ness judged at the run's windowEnd, through the API. */
class BatchRunIT extends SchedulerItSupport {

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";

  @LocalServerPort int port;
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void aRunRequestsExactlyTheSourcesDueAtItsWindowEnd() throws Exception {
    Instant windowEnd =
        Instant.now()
            .minus(Duration.ofMinutes(1))
            .truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    UUID fetchedTwoHoursBefore =
        source()
            .config(HOURLY)
            .cursor(lastFetch(windowEnd.minus(Duration.ofHours(2))))
            .nextDueAt(Instant.now().plus(Duration.ofDays(1)))
            .insert();
    UUID fetchedExactlyAnHourBefore =
        source()
            .config(HOURLY)
            .cursor(lastFetch(windowEnd.minus(Duration.ofMinutes(60))))
            .nextDueAt(Instant.now().plus(Duration.ofDays(1)))
            .insert();
    String recentCursor = lastFetch(windowEnd.minus(Duration.ofMinutes(30)));
    UUID fetchedHalfAnHourBefore =
        source()
            .config(HOURLY)
            .cursor(recentCursor)
            .nextDueAt(Instant.now().plus(Duration.ofDays(1)))
            .insert();
    UUID neverFetched =
        source().config(HOURLY).nextDueAt(Instant.now().plus(Duration.ofDays(1))).insert();
    source().config(HOURLY).claimed(4, Instant.now().plus(Duration.ofMinutes(5))).insert();
    source().config(HOURLY).enabled(false).insert();

    var response =
        post("{\"window_end\":\"" + windowEnd + "\",\"tenant_id\":\"" + tenant + "\"}", "it-token");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.body())
        .contains("\"evaluated\":5")
        .contains("\"due\":3")
        .contains("\"requested\":3")
        .contains("\"skipped_in_flight\":1");
    assertThat(requestsOfTenant())
        .extracting(FetchRequested::getSourceId)
        .containsExactlyInAnyOrder(
            fetchedTwoHoursBefore.toString(),
            fetchedExactlyAnHourBefore.toString(),
            neverFetched.toString());
    assertThat(requestsOfTenant()).allSatisfy(r -> assertThat(r.getDueAt()).isEqualTo(windowEnd));
    // skipped for cadence: untouched, last_fetch_at included
    assertThat(column(fetchedHalfAnHourBefore, "epoch", Long.class)).isZero();
    assertThat(column(fetchedHalfAnHourBefore, "cursor_json::text", String.class))
        .contains(windowEnd.minus(Duration.ofMinutes(30)).toString());
  }

  @Test
  void aRunWithoutAValidWindowEndIsRefusedWithTheReason() throws Exception {
    var missing = post("{}", "it-token");
    var malformed = post("{\"window_end\":\"yesterday\"}", "it-token");
    var future =
        post("{\"window_end\":\"" + Instant.now().plus(Duration.ofDays(1)) + "\"}", "it-token");

    assertThat(missing.statusCode()).isEqualTo(400);
    assertThat(missing.body()).contains("window_end: required");
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).contains("'yesterday' is not an ISO-8601 instant");
    assertThat(future.statusCode()).isEqualTo(400);
    assertThat(future.body()).contains("must not be more than 5 minutes in the future");
  }

  @Test
  void aRunNeedsTheBearerToken() throws Exception {
    var response = post("{\"window_end\":\"" + Instant.now() + "\"}", "wrong");

    assertThat(response.statusCode()).isEqualTo(401);
  }

  private static String lastFetch(Instant at) {
    return "{\"last_fetch_at\":\"" + at + "\"}";
  }

  private HttpResponse<String> post(String body, String token) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/runs"))
            .header("Content-Type", "application/json")
            .header("Authorization", "Bearer " + token)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
