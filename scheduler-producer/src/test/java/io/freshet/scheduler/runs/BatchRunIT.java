package io.freshet.scheduler.runs;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.claims.ClaimRound;
import io.freshet.scheduler.outcomes.OutcomeApplier;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.scheduler.testing.TestEvents;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The batch run of ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md): due-ness judged
 * at the run's windowEnd, through the API.
 */
class BatchRunIT extends SchedulerItSupport {

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";

  @LocalServerPort int port;
  @Autowired BatchRunService runs;
  @Autowired OutcomeApplier outcomes;
  @Autowired ClaimRound claimRound;
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
  void hourlyRunsFetchAnHourlySourceInEveryRunNotEverySecondOne() {
    // Before ADR 0003, last_fetch_at was the fetch's finish time, a little after the run's
    // window_end, so the next hourly run judged the source 59 minutes old and skipped it.
    Instant first =
        Instant.now().minus(Duration.ofHours(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    UUID id =
        source()
            .config(HOURLY)
            .cursor(lastFetch(first.minus(Duration.ofHours(1))))
            .nextDueAt(Instant.now().plus(Duration.ofDays(1)))
            .insert();

    assertThat(runs.run(first, tenant).requested()).isOne();
    FetchCompleted done = TestEvents.completed(id, 1, FetchStatus.ok);
    done.setStartedAt(first.plusSeconds(5));
    done.setFinishedAt(first.plusSeconds(40));
    assertThat(outcomes.apply(done)).isEqualTo(OutcomeApplier.Result.APPLIED);

    assertThat(column(id, "cursor_json->>'last_fetch_at'", String.class))
        .isEqualTo(first.toString());
    assertThat(runs.run(first.plus(Duration.ofHours(1)), tenant).requested()).isOne();
  }

  @Test
  void aScheduledFetchStillRecordsItsFinishTime() {
    UUID id = source().config(HOURLY).insert();
    assertThat(claimRound.claimDue()).isOne();
    FetchCompleted done = TestEvents.completed(id, 1, FetchStatus.ok);

    outcomes.apply(done);

    assertThat(column(id, "cursor_json->>'last_fetch_at'", String.class))
        .isEqualTo(done.getFinishedAt().toString());
  }

  @Test
  void aRunWithAnUnknownFieldOrTenantIsRefusedAndRequestsNothing() throws Exception {
    // "tenantId" used to be ignored, and the run went over every tenant.
    source().config(HOURLY).insert();
    String windowEnd = Instant.now().minusSeconds(60).toString();

    var camel = post("{\"window_end\":\"" + windowEnd + "\",\"tenantId\":\"batch\"}", "it-token");
    var unknownTenant =
        post("{\"window_end\":\"" + windowEnd + "\",\"tenant_id\":\"no-such\"}", "it-token");

    assertThat(camel.statusCode()).isEqualTo(400);
    assertThat(camel.body()).contains("tenantId");
    assertThat(unknownTenant.statusCode()).isEqualTo(404);
    assertThat(unknownTenant.body()).contains("no-such");
    assertThat(requestsOfTenant()).isEmpty();
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
