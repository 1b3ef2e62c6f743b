package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.cadence.source.Outcome;
import io.freshet.scheduler.testing.TestEvents;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ServerHints;
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

  private static OutcomeRules.Apply decided(
      ScheduleRow row, FetchCompleted event, ServerRules rules) {
    return (OutcomeRules.Apply)
        OutcomeRules.decide(row, event, NOW, (r, o, now) -> now.plus(Duration.ofHours(1)), rules);
  }

  @Test
  void theServersHintsHoldTheNextFetchBackUnlessTheSourceIgnoresThem() {
    FetchCompleted event = event(3, FetchStatus.ok);
    ServerHints hints = ServerHints.newBuilder().setTtlMinutes(180).build();
    event.setHints(hints);

    var held = decided(row(3, 0, false, null), event, ServerRules.NO_JITTER);
    assertThat(held.nextDue()).isEqualTo(event.getFinishedAt().plus(Duration.ofMinutes(180)));
    assertThat(held.heldBy()).isEqualTo("ttl");
    assertThat(held.facts().hintNotBefore()).isEqualTo(held.nextDue());
    assertThat(held.facts().hintsJson()).contains("\"ttl_minutes\":180");

    var ignored =
        decided(
            like(row(3, 0, false, null), "{\"hints\":\"ignore\"}", null, false),
            event,
            ServerRules.NO_JITTER);
    assertThat(ignored.nextDue()).isEqualTo(NOW.plus(Duration.ofHours(1)));
    assertThat(ignored.heldBy()).isNull();
    assertThat(ignored.facts().hintsJson()).as("still shown").contains("ttl_minutes");

    var manual = decided(row(3, 0, true, null), event, ServerRules.NO_JITTER);
    assertThat(manual.nextDue()).as("a fetch-now overrides hints").isEqualTo(NOW);
  }

  @Test
  void aPermanentMoveIsFollowedOnlyWhenTheNextFetchIsMovedTheSameWay() {
    FetchCompleted event = event(3, FetchStatus.ok);
    event.setMovedTo("https://new.example/rss");

    var first = decided(row(3, 0, false, null), event, ServerRules.NO_JITTER);
    assertThat(first.move()).isNull();
    assertThat(first.facts().movedTo()).isEqualTo("https://new.example/rss");

    var second =
        decided(
            like(row(3, 0, false, null), "{}", "https://new.example/rss", false),
            event,
            ServerRules.NO_JITTER);
    assertThat(second.move())
        .isEqualTo(
            new OutcomeRules.Move(
                "https://feed.example/rss", "https://new.example/rss", "new.example"));
    assertThat(second.facts().movedTo()).isNull();

    FetchCompleted notMoved = event(3, FetchStatus.ok);
    var back =
        decided(
            like(row(3, 0, false, null), "{}", "https://new.example/rss", false),
            notMoved,
            ServerRules.NO_JITTER);
    assertThat(back.move()).isNull();
    assertThat(back.facts().movedTo()).as("not consecutive: forgotten").isNull();

    var credentials =
        decided(
            like(row(3, 0, false, null), "{}", "https://new.example/rss", true),
            event,
            ServerRules.NO_JITTER);
    assertThat(credentials.move()).as("credentials never follow to another host").isNull();

    FetchCompleted sneaky = event(3, FetchStatus.ok);
    sneaky.setMovedTo("file:///etc/passwd");
    assertThat(decided(row(3, 0, false, null), sneaky, ServerRules.NO_JITTER).facts().movedTo())
        .isNull();
  }

  @Test
  void goneDisablesRobotsAndRepeated404sWaitTheCeiling() {
    FetchCompleted gone = event(3, FetchStatus.failed);
    gone.setHttpStatus(410);
    assertThat(decided(row(3, 0, false, null), gone, ServerRules.NO_JITTER).disabledReason())
        .isEqualTo("gone");

    Instant ceiling = NOW.minusSeconds(5).plus(Duration.ofHours(24));
    FetchCompleted robots = event(3, FetchStatus.failed);
    robots.setErrorKind("robots");
    var refused = decided(row(3, 0, false, null), robots, ServerRules.NO_JITTER);
    assertThat(refused.nextDue()).isEqualTo(ceiling);
    assertThat(refused.disabledReason()).isNull();

    FetchCompleted notFound = event(3, FetchStatus.failed);
    notFound.setHttpStatus(404);
    assertThat(decided(row(3, 1, false, null), notFound, ServerRules.NO_JITTER).nextDue())
        .as("second 404: the cadence's backoff")
        .isEqualTo(NOW.plus(Duration.ofHours(1)));
    assertThat(decided(row(3, 2, false, null), notFound, ServerRules.NO_JITTER).nextDue())
        .as("third 404 in a row")
        .isEqualTo(ceiling);
  }

  @Test
  void aRetryAfterInTheYear9999IsCappedAtADay() {
    FetchCompleted event = event(3, FetchStatus.failed);
    event.setHttpStatus(429);
    event.setRetryAfter(Instant.parse("9999-12-31T23:59:59Z"));

    var apply = decided(row(3, 0, false, null), event, ServerRules.NO_JITTER);

    assertThat(apply.retryAfter()).isEqualTo(NOW.minusSeconds(5).plus(Duration.ofHours(24)));
  }

  @Test
  void aRequestNotSentWhileItsHostCoolsDownIsDeferredWithoutAMiss() {
    FetchCompleted event = event(3, FetchStatus.expired);
    event.setErrorKind("host_cooling_down");
    Instant end = NOW.plus(Duration.ofMinutes(40));
    event.setRetryAfter(end);

    var exact = decided(row(3, 1, false, null), event, ServerRules.NO_JITTER);
    assertThat(exact.nextDue()).isEqualTo(end);
    assertThat(exact.misses()).isOne();
    assertThat(exact.status()).isEqualTo("expired");

    var jittered = decided(row(3, 1, false, null), event, ServerRules.DEFAULTS);
    assertThat(jittered.nextDue()).isBetween(end, end.plus(Duration.ofMinutes(4)));
  }

  private static ScheduleRow like(ScheduleRow r, String config, String movedTo, boolean creds) {
    return new ScheduleRow(
        r.id(),
        r.tenantTier(),
        r.category(),
        r.enabled(),
        config,
        r.cursorJson(),
        r.nextDueAt(),
        r.leaseUntil(),
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
        r.claimedWindowEnd(),
        r.url(),
        creds,
        movedTo,
        r.hintsJson());
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
        claimedWindowEnd,
        "https://feed.example/rss",
        false,
        null,
        null);
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
        r.claimedWindowEnd(),
        r.url(),
        r.hasCredentials(),
        r.movedTo(),
        r.hintsJson());
  }
}
