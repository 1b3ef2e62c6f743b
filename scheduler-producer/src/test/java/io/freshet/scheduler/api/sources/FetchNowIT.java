package io.freshet.scheduler.api.sources;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.api.ApiClient;
import io.freshet.scheduler.api.ApiItSupport;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class FetchNowIT extends ApiItSupport {

  @BeforeEach
  void setUp() {
    tenant = api.newTenant("free");
  }

  @Test
  void anUnleasedSourceBecomesDueNowAndIsFlagged() {
    UUID id = api.newFeed(tenant, "Later", "https://later.example.org/feed");
    Instant tomorrow = Instant.now().plus(1, ChronoUnit.DAYS);
    setSchedule(id, tomorrow, null);
    Instant before = Instant.now().truncatedTo(ChronoUnit.MILLIS).minusMillis(1);

    ApiClient.Response accepted = api.post("/sources/" + id + "/fetch", null);

    assertThat(accepted.status()).isEqualTo(202);
    JsonNode body = accepted.json();
    assertThat(body.get("in_flight").booleanValue()).isFalse();
    assertThat(body.get("manual_requested").booleanValue()).isTrue();
    assertThat(body.get("message").stringValue()).contains("due now");
    Instant due = schedule(id).nextDueAt();
    assertThat(due).isBetween(before, Instant.now());
    assertThat(Instant.parse(body.get("next_due_at").stringValue())).isEqualTo(due);
    assertThat(schedule(id).manualRequested()).isTrue();
  }

  @Test
  void anEarlierDueTimeIsKept() {
    UUID id = api.newFeed(tenant, "Overdue", "https://overdue.example.org/feed");
    Instant yesterday = Instant.now().minus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MICROS);
    setSchedule(id, yesterday, null);

    assertThat(api.post("/sources/" + id + "/fetch", null).status()).isEqualTo(202);

    assertThat(schedule(id).nextDueAt()).isEqualTo(yesterday);
  }

  @Test
  void aLeasedSourceKeepsItsDueTimeAndTheFlagWaitsForTheOutcome() {
    UUID id = api.newFeed(tenant, "Busy", "https://busy.example.org/feed");
    Instant tomorrow = Instant.now().plus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MICROS);
    Instant leaseEnd = Instant.now().plus(5, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MICROS);
    setSchedule(id, tomorrow, leaseEnd);

    ApiClient.Response accepted = api.post("/sources/" + id + "/fetch", null);

    assertThat(accepted.status()).isEqualTo(202);
    assertThat(accepted.json().get("in_flight").booleanValue()).isTrue();
    assertThat(accepted.json().get("message").stringValue()).contains("in flight");
    assertThat(schedule(id).nextDueAt()).isEqualTo(tomorrow);
    assertThat(schedule(id).manualRequested()).isTrue();
  }

  @Test
  void anExpiredLeaseDoesNotCountAsInFlight() {
    UUID id = api.newFeed(tenant, "Stale lease", "https://stale.example.org/feed");
    setSchedule(
        id, Instant.now().plus(1, ChronoUnit.DAYS), Instant.now().minus(1, ChronoUnit.MINUTES));

    ApiClient.Response accepted = api.post("/sources/" + id + "/fetch", null);

    assertThat(accepted.json().get("in_flight").booleanValue()).isFalse();
    assertThat(schedule(id).nextDueAt()).isBefore(Instant.now().plusSeconds(1));
  }

  @Test
  void aDisabledSourceIs409AndAnUnknownOne404() {
    UUID id = api.newFeed(tenant, "Off", "https://off.example.org/feed");
    api.post("/sources/" + id + "/disable", null);

    ApiClient.Response disabled = api.post("/sources/" + id + "/fetch", null);

    assertThat(disabled.status()).isEqualTo(409);
    assertThat(disabled.errors()).singleElement().asString().contains("is disabled");
    assertThat(schedule(id).manualRequested()).isFalse();
    assertThat(api.post("/sources/" + UUID.randomUUID() + "/fetch", null).status()).isEqualTo(404);
  }

  private record Schedule(Instant nextDueAt, boolean manualRequested) {}

  private Schedule schedule(UUID id) {
    return jdbc.sql("SELECT next_due_at, manual_requested FROM scheduler.sources WHERE id = ?")
        .param(id)
        .query(
            (rs, n) ->
                new Schedule(rs.getObject(1, OffsetDateTime.class).toInstant(), rs.getBoolean(2)))
        .single();
  }

  private void setSchedule(UUID id, Instant nextDue, Instant leaseUntil) {
    jdbc.sql(
            "UPDATE scheduler.sources SET next_due_at = ?, lease_until = CAST(? AS timestamptz) WHERE id = ?")
        .params(
            nextDue.atOffset(ZoneOffset.UTC),
            leaseUntil == null ? null : leaseUntil.atOffset(ZoneOffset.UTC),
            id)
        .update();
  }
}
