package io.freshet.cadence.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.budget.Objective;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.SignalType;
import io.freshet.cadence.source.SourceSnapshot;
import io.freshet.cadence.source.Tier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AdaptivePolicyTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private final AdaptivePolicy policy =
      new AdaptivePolicy(CadenceDefaults.adaptive(null), Category.RSS);
  private final AdaptivePolicy unweighted =
      new AdaptivePolicy(
          new CadenceSpec.Adaptive(
              null,
              Duration.ofMinutes(5),
              Duration.ofDays(7),
              Duration.ofMinutes(60),
              Duration.ofDays(14),
              Objective.DELAY,
              false),
          Category.RSS);

  private static Duration interval(AdaptivePolicy p, SourceSnapshot s, BudgetPlan plan) {
    return Duration.between(NOW, p.nextDue(s, NOW, NOW, plan));
  }

  private static SourceSnapshot rate(double perHour) {
    return SourceSnapshot.builder().changeRatePerHour(perHour).build();
  }

  @Test
  void coldStartTakesTheCategoryBaseAsItsChangeRate() {
    SourceSnapshot calendar = SourceSnapshot.builder().category(Category.CALENDAR).build();
    assertThat(unweighted.estimatedRate(calendar, NOW)).isEqualTo(1.0 / 6);
    assertThat(interval(unweighted, calendar, BudgetPlan.NONE))
        .isEqualTo(interval(unweighted, rate(1.0 / 6), BudgetPlan.NONE));
    // RSS: one change per hour-long base → fetched at the one-hour reference
    assertThat(interval(unweighted, SourceSnapshot.fresh(), BudgetPlan.NONE))
        .isEqualTo(Duration.ofHours(1));
  }

  @Test
  void squareRootRule_aSourceChangingOnceAnHourIsFetchedAtTheReference() {
    assertThat(interval(unweighted, rate(1.0), BudgetPlan.NONE)).isEqualTo(Duration.ofHours(1));
    // four times rarer changes → twice the interval (f ∝ √λ)
    assertThat(interval(unweighted, rate(0.25), BudgetPlan.NONE)).isEqualTo(Duration.ofHours(2));
    assertThat(interval(unweighted, rate(1.0 / 24), BudgetPlan.NONE).toMinutes())
        .isEqualTo(Math.round(60 * Math.sqrt(24) - 0.5));
  }

  @Test
  void clampedToMinAndMax() {
    assertThat(interval(unweighted, rate(10_000), BudgetPlan.NONE))
        .isEqualTo(Duration.ofMinutes(5));
    assertThat(interval(unweighted, rate(1e-5), BudgetPlan.NONE)).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void importanceWeightsTightenUrgentSources() {
    SourceSnapshot plain =
        rate(0.25).toBuilder()
            .dominantSignalType(SignalType.INFORMATIVE)
            .medianDaysToEvent(20.0)
            .build();
    SourceSnapshot urgent =
        plain.toBuilder().dominantSignalType(SignalType.EVENT).medianDaysToEvent(3.0).build();
    assertThat(ImportanceWeights.of(plain)).isEqualTo(1.0);
    assertThat(ImportanceWeights.of(urgent)).isEqualTo(4.0);
    // weight 4 → √4 = twice the rate
    assertThat(interval(policy, urgent, BudgetPlan.NONE))
        .isEqualTo(interval(policy, plain, BudgetPlan.NONE).dividedBy(2));
    SourceSnapshot undated = plain.toBuilder().medianDaysToEvent(null).build();
    assertThat(ImportanceWeights.of(undated)).isCloseTo(2.0 / 3, within(1e-12));
  }

  @Test
  void estimatesTheRateFromPublicationTimesWhenNoStatIsGiven() {
    List<Instant> hourly = new ArrayList<>();
    for (int i = 0; i < 48; i++) {
      hourly.add(NOW.minus(Duration.ofHours(i)));
    }
    double lambda =
        policy.estimatedRate(SourceSnapshot.builder().recentPublishedAt(hourly).build(), NOW);
    assertThat(lambda).isCloseTo(1.0, within(0.05));
  }

  @Test
  void publishIntervalIsTheLastResortEvidence() {
    double lambda =
        policy.estimatedRate(
            SourceSnapshot.builder().publishIntervalAvg(Duration.ofHours(4)).build(), NOW);
    assertThat(lambda).isEqualTo(0.25);
  }

  @Test
  void budgetPriceScaleLoosensEveryInterval() {
    // price × 4 → rate / 2 under the square-root rule
    assertThat(interval(unweighted, rate(1.0), new BudgetPlan(4.0, 1.0)))
        .isEqualTo(Duration.ofHours(2));
  }

  @Test
  void demandCarriesClampsIncludingTheTierMinimum() {
    Demand.Adaptive d =
        (Demand.Adaptive) policy.demand(rate(1.0).toBuilder().tier(Tier.STARTER).build(), NOW);
    assertThat(d.maxRate()).isCloseTo(1.0 / 6, within(1e-12));
    assertThat(d.minRate()).isCloseTo(1.0 / 168, within(1e-12));
  }

  @Test
  void failuresBackOffUpToMax() {
    SourceSnapshot failing = rate(1.0).toBuilder().consecutiveMisses(3).build();
    assertThat(interval(unweighted, failing, BudgetPlan.NONE)).isEqualTo(Duration.ofHours(8));
    failing = rate(1e-3).toBuilder().consecutiveMisses(3).build();
    assertThat(interval(unweighted, failing, BudgetPlan.NONE)).isEqualTo(Duration.ofDays(7));
  }

  @Test
  void harmonicObjectiveGivesDiminishingReturnsToFastSources() {
    AdaptivePolicy harmonic =
        new AdaptivePolicy(
            new CadenceSpec.Adaptive(
                null,
                Duration.ofSeconds(1),
                Duration.ofDays(7),
                Duration.ofMinutes(60),
                Duration.ofDays(14),
                Objective.HARMONIC,
                false),
            Category.RSS);
    assertThat(interval(harmonic, rate(1.0), BudgetPlan.NONE)).isEqualTo(Duration.ofHours(1));
    Duration fast = interval(harmonic, rate(100.0), BudgetPlan.NONE);
    // 100× the changes buys far less than 10× (√100) the fetches
    assertThat(fast).isGreaterThan(Duration.ofMinutes(25));
  }
}
