package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.testing.TestEvents;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Polling while push is live (ADR 0015), without a database. */
class PushRulesTest {

  private static final UUID ID = UUID.randomUUID();
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final Instant FINISHED = NOW.minusSeconds(5);
  private static final Instant PREVIOUS_FETCH = Instant.parse("2026-11-22T08:00:00Z");
  private static final String CURSOR = "{\"last_fetch_at\":\"" + PREVIOUS_FETCH + "\"}";
  private static final Instant CADENCE_DUE = FINISHED.plus(Duration.ofHours(1));
  private static final Instant LEASE_END = NOW.plus(Duration.ofDays(10));

  private final PushRules rules = new PushRules(Duration.ofHours(24), CadenceTimeScale.identity());

  @Test
  void withoutALiveSubscriptionTheOutcomeStands() {
    var verdict =
        rules.afterOutcome(
            row(false), PushRules.PushState.NONE, ok(ItemNovelty.added), apply(), NOW);

    assertThat(verdict).isInstanceOf(PushRules.Unchanged.class);
  }

  @Test
  void aLiveSubscriptionMakesTheNextPollASafetyNetAfterTheFetch() {
    var push = new PushRules.PushState(LEASE_END, NOW.minusSeconds(60)); // announced
    var verdict = rules.afterOutcome(row(false), push, ok(ItemNovelty.added), apply(), NOW);

    assertThat(verdict).isInstanceOf(PushRules.Relaxed.class);
    var relaxed = (PushRules.Relaxed) verdict;
    assertThat(relaxed.saved()).isTrue();
    assertThat(relaxed.apply().nextDue()).isEqualTo(FINISHED.plus(Duration.ofHours(24)));
    assertThat(relaxed.apply().cursorJson()).isEqualTo(apply().cursorJson());
  }

  @Test
  void aNotModifiedOrUnchangedPollIsRelaxedToo() {
    var push = new PushRules.PushState(LEASE_END, null);
    for (FetchCompleted event : List.of(status(FetchStatus.not_modified), ok(ItemNovelty.seen))) {
      var verdict = rules.afterOutcome(row(false), push, event, apply(), NOW);
      assertThat(((PushRules.Relaxed) verdict).apply().nextDue())
          .isEqualTo(FINISHED.plus(Duration.ofHours(24)));
    }
  }

  @Test
  void theSafetyNetNeverPollsSoonerThanTheCadence() {
    var push = new PushRules.PushState(LEASE_END, null);
    OutcomeRules.Apply slow = apply(FINISHED.plus(Duration.ofDays(3)));
    var verdict = rules.afterOutcome(row(false), push, status(FetchStatus.not_modified), slow, NOW);

    var relaxed = (PushRules.Relaxed) verdict;
    assertThat(relaxed.saved()).isFalse();
    assertThat(relaxed.apply().nextDue()).isEqualTo(FINISHED.plus(Duration.ofDays(3)));
  }

  @Test
  void theSafetyNetEndsWithTheLease() {
    Instant leaseEnd = NOW.plus(Duration.ofHours(6));
    var push = new PushRules.PushState(leaseEnd, null);
    var verdict =
        rules.afterOutcome(row(false), push, status(FetchStatus.not_modified), apply(), NOW);

    assertThat(((PushRules.Relaxed) verdict).apply().nextDue()).isEqualTo(leaseEnd);
  }

  @Test
  void aLeaseThatEndedReturnsTheSourceToItsCadence() {
    var push = new PushRules.PushState(NOW, null);
    var verdict =
        rules.afterOutcome(row(false), push, status(FetchStatus.not_modified), apply(), NOW);

    assertThat(verdict).isEqualTo(new PushRules.Returned(PushRules.EXPIRED));
  }

  @Test
  void aPollThatFindsItemsNoNotificationAnnouncedReturnsTheSourceToItsCadence() {
    var neverNotified = new PushRules.PushState(LEASE_END, null);
    var notifiedBeforeThePreviousFetch =
        new PushRules.PushState(LEASE_END, PREVIOUS_FETCH.minusSeconds(1));

    for (var push : List.of(neverNotified, notifiedBeforeThePreviousFetch)) {
      for (ItemNovelty found : List.of(ItemNovelty.added, ItemNovelty.changed)) {
        assertThat(rules.afterOutcome(row(false), push, ok(found), apply(), NOW))
            .isEqualTo(new PushRules.Returned(PushRules.UNANNOUNCED));
      }
    }
  }

  @Test
  void aFetchANotificationAskedForIsAnnouncedEvenWhenTheNotificationCameDuringThePreviousFetch() {
    // The notification arrived while the previous fetch was in flight: older than that fetch's
    // end (last_fetch_at), it still asked for this fetch, which found the item it announced.
    var notifiedDuringThePreviousFetch =
        new PushRules.PushState(LEASE_END, PREVIOUS_FETCH.minusSeconds(1), true);

    var verdict =
        rules.afterOutcome(
            row(false), notifiedDuringThePreviousFetch, ok(ItemNovelty.added), apply(), NOW);

    assertThat(verdict).isInstanceOf(PushRules.Relaxed.class);
    assertThat(((PushRules.Relaxed) verdict).saved()).isTrue();
  }

  @Test
  void theFirstFetchHasNothingToCompareWithAndCountsAsAnnounced() {
    ScheduleRow neverFetched = row(false, "{}");
    var push = new PushRules.PushState(LEASE_END, null);

    assertThat(rules.afterOutcome(neverFetched, push, ok(ItemNovelty.added), apply(), NOW))
        .isInstanceOf(PushRules.Relaxed.class);
  }

  @ParameterizedTest
  @EnumSource(
      value = FetchStatus.class,
      names = {"failed", "expired"})
  void failuresKeepTheirBackOff(FetchStatus status) {
    var push = new PushRules.PushState(LEASE_END, null);

    assertThat(rules.afterOutcome(row(false), push, status(status), apply(), NOW))
        .isInstanceOf(PushRules.Unchanged.class);
  }

  @Test
  void aFetchNowAskedDuringTheFlightStaysDueNow() {
    var push = new PushRules.PushState(LEASE_END, NOW.minusSeconds(1));

    assertThat(rules.afterOutcome(row(true), push, ok(ItemNovelty.added), apply(NOW), NOW))
        .isInstanceOf(PushRules.Unchanged.class);
  }

  @Test
  void theSafetyNetRunsInCadenceModelTime() {
    // The local demo: a model day per wall minute.
    var time = new CadenceTimeScale(1440, NOW.minusSeconds(3600), NOW.minusSeconds(3600));
    var scaled = new PushRules(Duration.ofHours(24), time);
    var push = new PushRules.PushState(LEASE_END, null);
    OutcomeRules.Apply soon = apply(FINISHED.plusSeconds(2));

    var verdict =
        scaled.afterOutcome(row(false), push, status(FetchStatus.not_modified), soon, NOW);

    assertThat(((PushRules.Relaxed) verdict).apply().nextDue())
        .isEqualTo(FINISHED.plus(Duration.ofMinutes(1)));
  }

  @Test
  void anEndedSubscriptionBringsTheDueTimeBackToTheCadence() {
    ScheduleRow relaxed = withDue(FINISHED.plus(Duration.ofHours(24)), null);
    Instant normal = NOW.plus(Duration.ofMinutes(30));

    assertThat(PushRules.afterEnded(relaxed, normal, NOW)).isEqualTo(normal);
    // Never later than it already was, and a claim in flight decides on its outcome.
    assertThat(PushRules.afterEnded(withDue(NOW.plusSeconds(60), null), normal, NOW))
        .isEqualTo(NOW.plusSeconds(60));
    ScheduleRow leased = withDue(NOW.plusSeconds(120), NOW.plusSeconds(120));
    assertThat(PushRules.afterEnded(leased, NOW, NOW)).isEqualTo(NOW.plusSeconds(120));
  }

  @Test
  void newStatsNeverBringASafetyNetPollForwardWhilePushIsLive() {
    Instant safetyNet = FINISHED.plus(Duration.ofHours(24));
    ScheduleRow relaxed = withDue(safetyNet, null);
    Instant normal = NOW.plus(Duration.ofMinutes(30));
    PushRules.PushState live = new PushRules.PushState(LEASE_END, null);

    assertThat(PushRules.afterStats(relaxed, live, normal, NOW)).isEqualTo(safetyNet);
    // A cadence later than the safety net is the cadence's, live or not.
    Instant slow = NOW.plus(Duration.ofDays(3));
    assertThat(PushRules.afterStats(relaxed, live, slow, NOW)).isEqualTo(slow);
    // Without a live subscription, or once its lease ended, the stats' cadence decides.
    assertThat(PushRules.afterStats(relaxed, PushRules.PushState.NONE, normal, NOW))
        .isEqualTo(normal);
    PushRules.PushState ended = new PushRules.PushState(NOW.minusSeconds(1), null);
    assertThat(PushRules.afterStats(relaxed, ended, normal, NOW)).isEqualTo(normal);
    assertThat(PushRules.afterStats(withDue(null, null), live, normal, NOW)).isEqualTo(normal);
  }

  private static OutcomeRules.Apply apply() {
    return apply(CADENCE_DUE);
  }

  private static OutcomeRules.Apply apply(Instant due) {
    return new OutcomeRules.Apply("{\"etag\":\"new\"}", "ok", null, FINISHED, null, 0, due);
  }

  @Test
  void newItemsAreTheDigestsNotSeenOrTheItemCountWithoutDigests() {
    assertThat(PushRules.newItems(ok(ItemNovelty.added))).isEqualTo(1);
    assertThat(PushRules.newItems(ok(ItemNovelty.changed))).isEqualTo(1);
    assertThat(PushRules.newItems(ok(ItemNovelty.seen))).isZero();
    assertThat(PushRules.newItems(status(FetchStatus.not_modified))).isZero();
    FetchCompleted countOnly = status(FetchStatus.ok);
    countOnly.setItemCount(3);
    assertThat(PushRules.newItems(countOnly)).isEqualTo(3);
  }

  private static FetchCompleted status(FetchStatus status) {
    FetchCompleted event = TestEvents.completed(ID, 3, status);
    event.setFinishedAt(FINISHED);
    event.setItems(List.of());
    event.setItemCount(0);
    return event;
  }

  private static FetchCompleted ok(ItemNovelty novelty) {
    FetchCompleted event = status(FetchStatus.ok);
    event.setItems(
        List.of(
            ItemDigest.newBuilder()
                .setItemId("a")
                .setContentHash("00")
                .setNovelty(ItemNovelty.seen)
                .build(),
            ItemDigest.newBuilder()
                .setItemId("b")
                .setContentHash("01")
                .setNovelty(novelty)
                .build()));
    event.setItemCount(novelty == ItemNovelty.seen ? 0 : 1);
    return event;
  }

  private static ScheduleRow row(boolean manualRequested) {
    return row(manualRequested, CURSOR);
  }

  private static ScheduleRow withDue(Instant due, Instant lease) {
    ScheduleRow r = row(false);
    return new ScheduleRow(
        r.id(),
        r.tenantTier(),
        r.category(),
        r.enabled(),
        r.configJson(),
        r.cursorJson(),
        due,
        lease,
        r.epoch(),
        false,
        null,
        0,
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
        null,
        r.url(),
        false,
        null,
        null);
  }

  private static ScheduleRow row(boolean manualRequested, String cursor) {
    return new ScheduleRow(
        ID,
        "pro",
        null,
        true,
        "{}",
        cursor,
        NOW,
        NOW.plusSeconds(60),
        3,
        manualRequested,
        null,
        0,
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
        null,
        "https://feed.example/rss",
        false,
        null,
        null);
  }
}
