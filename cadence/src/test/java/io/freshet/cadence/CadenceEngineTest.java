package io.freshet.cadence;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.budget.BudgetMode;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import io.freshet.cadence.source.Tier;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class CadenceEngineTest {

  private static final Instant WINDOW_END = Instant.parse("2026-01-05T12:00:00Z");
  private final CadenceEngine engine = new CadenceEngine(Clock.fixed(WINDOW_END, ZoneOffset.UTC));
  private final CadenceSpec every8h =
      engine.parser().parse("{\"mode\":\"interval\",\"every_minutes\":480}");

  private static SourceSnapshot fetchedAt(Instant t) {
    return SourceSnapshot.builder().lastFetchAt(t).build();
  }

  @Test
  void intervalIsDueWhenNeverFetched() {
    assertThat(engine.isDue(every8h, SourceSnapshot.fresh(), WINDOW_END)).isTrue();
  }

  @Test
  void intervalIsDueExactlyWhenEveryMinutesHavePassedAtWindowEnd() {
    assertThat(
            engine.isDue(every8h, fetchedAt(WINDOW_END.minus(Duration.ofMinutes(480))), WINDOW_END))
        .isTrue();
    assertThat(
            engine.isDue(every8h, fetchedAt(WINDOW_END.minus(Duration.ofMinutes(479))), WINDOW_END))
        .isFalse();
    assertThat(engine.isDue(every8h, fetchedAt(WINDOW_END.minus(Duration.ofDays(3))), WINDOW_END))
        .isTrue();
  }

  @Test
  void isDueUsesTheInjectedClockWhenNoInstantIsGiven() {
    assertThat(engine.isDue(every8h, fetchedAt(WINDOW_END.minus(Duration.ofHours(8))))).isTrue();
    assertThat(engine.isDue(every8h, fetchedAt(WINDOW_END.minus(Duration.ofHours(7))))).isFalse();
  }

  @Test
  void alwaysIsDueAtEveryRun() {
    CadenceSpec always = new CadenceSpec.Always();
    assertThat(engine.isDue(always, SourceSnapshot.fresh(), WINDOW_END)).isTrue();
    assertThat(engine.isDue(always, fetchedAt(WINDOW_END), WINDOW_END)).isTrue();
  }

  @Test
  void aSkippedSourceKeepsItsLastFetchAt() {
    SourceSnapshot s = fetchedAt(WINDOW_END.minusSeconds(60));
    assertThat(engine.isDue(every8h, s, WINDOW_END)).isFalse();
    assertThat(s.lastFetchAt()).isEqualTo(WINDOW_END.minusSeconds(60));
  }

  @Test
  void successAndNotModifiedMoveLastFetchAtButAFailureDoesNot() {
    Instant before = WINDOW_END.minus(Duration.ofHours(9));
    SourceSnapshot s = fetchedAt(before).toBuilder().consecutiveMisses(2).build();
    assertThat(s.after(Outcome.success(WINDOW_END)).lastFetchAt()).isEqualTo(WINDOW_END);
    assertThat(s.after(Outcome.success(WINDOW_END)).consecutiveMisses()).isZero();
    assertThat(s.after(Outcome.notModified(WINDOW_END)).lastFetchAt()).isEqualTo(WINDOW_END);
    SourceSnapshot failed = s.after(Outcome.failure(WINDOW_END, null));
    assertThat(failed.lastFetchAt()).isEqualTo(before);
    assertThat(failed.consecutiveMisses()).isEqualTo(3);
  }

  @Test
  void nextDueAfterSuccessIsOneIntervalLater() {
    assertThat(
            engine.nextDueAt(
                every8h, SourceSnapshot.fresh(), Outcome.success(WINDOW_END), WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(8)));
    assertThat(
            engine.nextDueAt(
                every8h, SourceSnapshot.fresh(), Outcome.notModified(WINDOW_END), WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(8)));
  }

  @Test
  void failuresBackOffExponentiallyAndAreCapped() {
    SourceSnapshot s = fetchedAt(WINDOW_END.minus(Duration.ofHours(8)));
    CadenceSpec hourly = new CadenceSpec.Interval(Duration.ofHours(1));
    // first failure: 1 h × 2; third in a row: × 8; many: capped at the 24 h max backoff
    assertThat(engine.nextDueAt(hourly, s, Outcome.failure(WINDOW_END, null), WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(2)));
    assertThat(
            engine.nextDueAt(
                hourly,
                s.toBuilder().consecutiveMisses(2).build(),
                Outcome.failure(WINDOW_END, null),
                WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(8)));
    assertThat(
            engine.nextDueAt(
                hourly,
                s.toBuilder().consecutiveMisses(20).build(),
                Outcome.failure(WINDOW_END, null),
                WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(24)));
    // an interval longer than the cap is never shortened by a failure
    assertThat(
            engine.nextDueAt(
                new CadenceSpec.Interval(Duration.ofHours(48)),
                s.toBuilder().consecutiveMisses(3).build(),
                Outcome.failure(WINDOW_END, null),
                WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(48)));
  }

  @Test
  void alwaysBacksOffFromFiveMinutesAfterAFailure() {
    assertThat(
            engine.nextDueAt(
                new CadenceSpec.Always(),
                SourceSnapshot.fresh(),
                Outcome.failure(WINDOW_END, null),
                WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofMinutes(10)));
  }

  @Test
  void retryAfterIsAFloor() {
    Instant retryAfter = WINDOW_END.plus(Duration.ofHours(6));
    assertThat(
            engine.nextDueAt(
                new CadenceSpec.Interval(Duration.ofMinutes(5)),
                SourceSnapshot.fresh(),
                Outcome.failure(WINDOW_END, retryAfter),
                WINDOW_END))
        .isEqualTo(retryAfter);
    // a Retry-After earlier than the backoff does not pull the retry forward
    assertThat(
            engine.nextDueAt(
                every8h,
                SourceSnapshot.fresh(),
                Outcome.failure(WINDOW_END, WINDOW_END.plusSeconds(30)),
                WINDOW_END))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(16)));
    SourceSnapshot waiting = SourceSnapshot.builder().retryAfter(retryAfter).build();
    assertThat(engine.isDue(every8h, waiting, WINDOW_END)).isFalse();
    assertThat(engine.isDue(every8h, waiting, retryAfter)).isTrue();
  }

  @Test
  void tierSetsTheMinimumInterval() {
    CadenceSpec every5min = new CadenceSpec.Interval(Duration.ofMinutes(5));
    for (Tier tier : Tier.values()) {
      SourceSnapshot s = SourceSnapshot.builder().tier(tier).build();
      assertThat(engine.nextDueAt(every5min, s, Outcome.success(WINDOW_END), WINDOW_END))
          .isEqualTo(WINDOW_END.plus(tier.minimumInterval()));
    }
    assertThat(Tier.FREE.minimumInterval()).isEqualTo(Duration.ofHours(12));
    assertThat(Tier.STARTER.minimumInterval()).isEqualTo(Duration.ofHours(6));
    assertThat(Tier.PRO.minimumInterval()).isEqualTo(Duration.ofHours(1));
    SourceSnapshot free =
        fetchedAt(WINDOW_END.minus(Duration.ofHours(11))).toBuilder().tier(Tier.FREE).build();
    assertThat(engine.isDue(every5min, free, WINDOW_END)).isFalse();
    assertThat(engine.isDue(new CadenceSpec.Always(), free, WINDOW_END)).isFalse();
    assertThat(engine.isDue(every5min, free, WINDOW_END.plus(Duration.ofHours(1)))).isTrue();
  }

  @Test
  void budgetCompressesFixedModesProportionally() {
    List<Demand> demands =
        List.of(
            engine.demand(every8h, SourceSnapshot.fresh(), WINDOW_END),
            engine.demand(
                new CadenceSpec.Interval(Duration.ofHours(2)), SourceSnapshot.fresh(), WINDOW_END));
    // wanted 1/8 + 1/2 = 0.625 per hour; budget 0.25 → compression 2.5
    BudgetPlan plan = engine.planBudget(demands, 0.25, BudgetMode.CAP);
    assertThat(plan.compression()).isCloseTo(2.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(
            engine.nextDueAt(
                every8h, SourceSnapshot.fresh(), Outcome.success(WINDOW_END), WINDOW_END, plan))
        .isEqualTo(WINDOW_END.plus(Duration.ofHours(20)));
    assertThat(engine.planBudget(demands, 10, BudgetMode.CAP)).isEqualTo(BudgetPlan.NONE);
  }

  @Test
  void wantedIntervalIsWhatASuccessNowWouldGive() {
    assertThat(engine.wantedInterval(every8h, SourceSnapshot.fresh(), WINDOW_END))
        .isEqualTo(Duration.ofHours(8));
  }
}
