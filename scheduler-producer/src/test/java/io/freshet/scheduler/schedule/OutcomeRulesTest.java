package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.cadence.source.Outcome;
import io.freshet.scheduler.testing.TestEvents;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.PoisonRecordException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The outcome rules of docs/design.md (Outcomes), without a database. */
class OutcomeRulesTest {

  private static final UUID ID = UUID.randomUUID();
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final Instant LEASE_END = NOW.plus(Duration.ofMinutes(4));
  private static final String CURSOR =
      "{\"etag\":\"\\\"old\\\"\",\"last_fetch_at\":\"2026-11-22T08:00:00Z\"}";

  /** The cadence answer: one hour after the outcome's time; records what it was asked. */
  private final List<Outcome> asked = new ArrayList<>();

  private final OutcomeRules.Cadence cadence =
      (row, outcome, now) -> {
        asked.add(outcome);
        return now.plus(Duration.ofHours(1));
      };

  @Test
  void okTakesTheNewCursorRecordsTheFetchTimeAndResetsMisses() {
    var apply = applied(row(3, 2, false, null), event(3, FetchStatus.ok));

    assertThat(apply.cursorJson()).contains("new").doesNotContain("old").doesNotContain("08:00");
    assertThat(apply.misses()).isZero();
    assertThat(apply.error()).isNull();
    assertThat(apply.nextDue()).isEqualTo(NOW.plus(Duration.ofHours(1)));
    assertThat(asked).singleElement().isInstanceOf(Outcome.Success.class);
  }

  @Test
  void partialKeepsItsErrorBesideTheNewCursor() {
    FetchCompleted event = event(3, FetchStatus.partial);
    event.setErrorKind("parse");
    event.setErrorMessage("item 7 has no id");
    event.setCursor(java.util.Map.of("etag", "\"new\""));

    var apply = applied(row(3, 0, false, null), event);

    assertThat(apply.error()).isEqualTo("parse: item 7 has no id");
    assertThat(apply.cursorJson()).contains("new").doesNotContain("old");
  }

  @Test
  void aNulCharacterInTheErrorIsStoredAsTheReplacementCharacter() {
    // PostgreSQL text cannot hold U+0000; the outcome would fail on every retry.
    FetchCompleted event = event(3, FetchStatus.failed);
    event.setErrorKind("parse");
    event.setErrorMessage("bad byte \u0000 here");

    var apply = applied(row(3, 0, false, null), event);

    assertThat(apply.error()).isEqualTo("parse: bad byte \uFFFD here");
  }

  @Test
  void notModifiedKeepsTheCursorButMovesLastFetchAtAndReschedules() {
    var apply = applied(row(3, 1, false, null), event(3, FetchStatus.not_modified));

    assertThat(apply.cursorJson()).contains("\\\"old\\\"").doesNotContain("2026-11-22T08:00:00Z");
    assertThat(apply.misses()).isZero();
    assertThat(asked).singleElement().isInstanceOf(Outcome.NotModified.class);
  }

  @Test
  void failedKeepsCursorAndLastFetchAtCountsAMissAndPassesRetryAfterToTheCadence() {
    FetchCompleted event = event(3, FetchStatus.failed);
    Instant retryAfter = NOW.plus(Duration.ofHours(2));
    event.setRetryAfter(retryAfter);

    var apply = applied(row(3, 2, false, null), event);

    assertThat(apply.cursorJson()).isEqualTo(CURSOR);
    assertThat(apply.misses()).isEqualTo(3);
    assertThat(apply.retryAfter()).isEqualTo(retryAfter);
    assertThat(asked)
        .singleElement()
        .isInstanceOfSatisfying(
            Outcome.Failure.class, f -> assertThat(f.retryAfter()).isEqualTo(retryAfter));
  }

  @Test
  void expiredReleasesTheLeaseAndMakesTheSourceDueNowWithoutAskingTheCadence() {
    var apply = applied(row(3, 1, false, null), event(3, FetchStatus.expired));

    assertThat(apply.nextDue()).isEqualTo(NOW);
    assertThat(apply.misses()).isOne();
    assertThat(apply.cursorJson()).isEqualTo(CURSOR);
    assertThat(asked).isEmpty();
  }

  @Test
  void aManualRequestDuringTheFetchMakesTheSourceDueRightAfterIt() {
    var apply = applied(row(3, 0, true, null), event(3, FetchStatus.ok));

    assertThat(apply.nextDue()).isEqualTo(NOW);
  }

  @Test
  void aBatchRunsFetchTakesTheRunsWindowEndAsItsTime() {
    Instant windowEnd = NOW.minus(Duration.ofMinutes(1));

    var apply = applied(row(3, 0, false, windowEnd), event(3, FetchStatus.ok));

    assertThat(apply.cursorJson()).contains("\"last_fetch_at\":\"" + windowEnd + "\"");
    assertThat(asked)
        .singleElement()
        .isInstanceOfSatisfying(
            Outcome.Success.class, s -> assertThat(s.at()).isEqualTo(windowEnd));
  }

  @ParameterizedTest
  @EnumSource(
      value = FetchStatus.class,
      names = {"unknown"},
      mode = EnumSource.Mode.EXCLUDE)
  void anOutcomeOfAnotherEpochOrAnAnsweredClaimChangesNothing(FetchStatus status) {
    assertThat(OutcomeRules.decide(row(4, 0, false, null), event(3, status), NOW, cadence))
        .isInstanceOf(OutcomeRules.Stale.class);
    ScheduleRow answered = withLease(row(3, 0, false, null), null);
    assertThat(OutcomeRules.decide(answered, event(3, status), NOW, cadence))
        .isInstanceOf(OutcomeRules.Stale.class);
    assertThat(asked).isEmpty();
  }

  @Test
  void aStatusOfANewerSchemaIsAPoisonRecordNotAFailure() {
    assertThatThrownBy(
            () ->
                OutcomeRules.decide(
                    row(3, 0, false, null), event(3, FetchStatus.unknown), NOW, cadence))
        .isInstanceOf(PoisonRecordException.class)
        .hasMessageContaining("newer schema");
  }

  private OutcomeRules.Apply applied(ScheduleRow row, FetchCompleted event) {
    return (OutcomeRules.Apply) OutcomeRules.decide(row, event, NOW, cadence);
  }

  private static FetchCompleted event(long epoch, FetchStatus status) {
    FetchCompleted event = TestEvents.completed(ID, epoch, status);
    event.setFinishedAt(NOW.minusSeconds(5));
    return event;
  }

  private static ScheduleRow row(
      long epoch, int misses, boolean manualRequested, Instant claimedWindowEnd) {
    return new ScheduleRow(
        ID,
        "pro",
        null,
        true,
        "{}",
        CURSOR,
        LEASE_END,
        LEASE_END,
        epoch,
        manualRequested,
        null,
        misses,
        0,
        0,
        null,
        null,
        "{}",
        null,
        null,
        List.of(),
        null,
        null,
        claimedWindowEnd);
  }

  private static ScheduleRow withLease(ScheduleRow r, Instant leaseUntil) {
    return new ScheduleRow(
        r.id(),
        r.tenantTier(),
        r.category(),
        r.enabled(),
        r.configJson(),
        r.cursorJson(),
        r.nextDueAt(),
        leaseUntil,
        r.epoch(),
        r.manualRequested(),
        r.retryAfter(),
        r.consecutiveMisses(),
        r.consecutiveEmpty(),
        r.windowFetches(),
        r.avgSignalYield(),
        r.dominantSignalType(),
        r.typeCountsJson(),
        r.medianDaysToEvent(),
        r.publishIntervalAvgMs(),
        r.recentPublishedAt(),
        r.changeRate(),
        r.statsUpdatedAt(),
        r.claimedWindowEnd());
  }
}
