package io.freshet.cadence.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.SignalType;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SignalAdaptivePolicyTest {

  private final SignalAdaptivePolicy policy =
      new SignalAdaptivePolicy(new CadenceSpec.SignalAdaptive(null, null, 3), Category.RSS);

  private static SourceSnapshot.Builder warm(Category category) {
    return SourceSnapshot.builder().category(category).windowFetches(10);
  }

  @Test
  void workedExample1_highSignalCommunityCalendar_isClampedToTheFloor() {
    // 12 h × 0.5 (5 events/scrape) × 0.5 (event) × 0.5 (events next week) = 1.5 h → floor 4 h
    SourceSnapshot s =
        warm(Category.SOCIAL)
            .avgSignalYield(5.0)
            .dominantSignalType(SignalType.EVENT)
            .medianDaysToEvent(5.0)
            .build();
    assertThat(policy.effectiveCadence(s)).isEqualTo(Duration.ofHours(4));
  }

  @Test
  void workedExample2_dormantInstitutionalPage_is252Hours() {
    // 168 h × 1.0 (1 informative/scrape) × 1.0 (informative) × 1.5 (no dates) = 252 h
    SourceSnapshot s =
        warm(Category.WEBSITE)
            .avgSignalYield(1.0)
            .dominantSignalType(SignalType.INFORMATIVE)
            .build();
    assertThat(policy.effectiveCadence(s)).isEqualTo(Duration.ofHours(252));
  }

  @Test
  void workedExample3_activeFoodShelfInstagram_isSixHours() {
    // 12 h × 1.0 (2 signals/scrape) × 0.5 (give/ask, mostly ask) × 1.0 (urgency) = 6 h.
    // ADR 0010 (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md): its third
    // example calls the urgency "ongoing programs" and gives it 1.0, the 7–30 day row; read with
    // the table's "no dates → 1.5" it would be 9 h. Ongoing programs recur, so their dates are
    // 7–30 days out: that is how the example is represented here.
    SourceSnapshot s =
        warm(Category.SOCIAL)
            .avgSignalYield(2.0)
            .dominantSignalType(SignalType.ASK)
            .medianDaysToEvent(14.0)
            .build();
    assertThat(policy.effectiveCadence(s)).isEqualTo(Duration.ofHours(6));
  }

  @Test
  void multiplierTableRowByRow() {
    assertThat(SignalFactors.yieldFactor(3.0)).isEqualTo(0.5);
    assertThat(SignalFactors.yieldFactor(2.0)).isEqualTo(1.0);
    assertThat(SignalFactors.yieldFactor(0.0)).isEqualTo(1.0);
    assertThat(SignalFactors.yieldFactor(null)).isEqualTo(1.0);
    assertThat(SignalFactors.typeFactor(SignalType.EVENT)).isEqualTo(0.5);
    assertThat(SignalFactors.typeFactor(SignalType.ASK)).isEqualTo(0.5);
    assertThat(SignalFactors.typeFactor(SignalType.GIVE)).isEqualTo(0.75);
    assertThat(SignalFactors.typeFactor(SignalType.INFORMATIVE)).isEqualTo(1.0);
    assertThat(SignalFactors.typeFactor(null)).isEqualTo(1.0);
    assertThat(SignalFactors.urgencyFactor(6.9)).isEqualTo(0.5);
    assertThat(SignalFactors.urgencyFactor(7.0)).isEqualTo(1.0);
    assertThat(SignalFactors.urgencyFactor(30.0)).isEqualTo(1.0);
    assertThat(SignalFactors.urgencyFactor(30.1)).isEqualTo(1.5);
    assertThat(SignalFactors.urgencyFactor(null)).isEqualTo(1.5);
  }

  @Test
  void coldStartUsesTheCategoryBaseUntilEnoughFetches() {
    SourceSnapshot s =
        SourceSnapshot.builder()
            .category(Category.SOCIAL)
            .windowFetches(2)
            .avgSignalYield(5.0)
            .dominantSignalType(SignalType.EVENT)
            .medianDaysToEvent(1.0)
            .build();
    assertThat(policy.effectiveCadence(s)).isEqualTo(Duration.ofHours(12));
    assertThat(policy.effectiveCadence(s.toBuilder().windowFetches(3).build()))
        .isEqualTo(Duration.ofHours(4));
  }

  @Test
  void backoffDoublesPerMissAndIsClampedToTheCategoryCeiling() {
    SourceSnapshot s =
        warm(Category.SOCIAL)
            .avgSignalYield(2.0)
            .dominantSignalType(SignalType.GIVE)
            .medianDaysToEvent(10.0)
            .build();
    // 12 × 0.75 = 9 h; one miss 18 h; two 36 h; three 72 h = ceiling; four still 72 h
    assertThat(policy.effectiveCadence(s)).isEqualTo(Duration.ofHours(9));
    assertThat(policy.effectiveCadence(s.toBuilder().consecutiveMisses(1).build()))
        .isEqualTo(Duration.ofHours(18));
    assertThat(policy.effectiveCadence(s.toBuilder().consecutiveMisses(2).build()))
        .isEqualTo(Duration.ofHours(36));
    assertThat(policy.effectiveCadence(s.toBuilder().consecutiveMisses(4).build()))
        .isEqualTo(Duration.ofHours(72));
  }

  @Test
  void websiteCeilingIs360Hours() {
    SourceSnapshot s = warm(Category.WEBSITE).consecutiveMisses(1).build();
    assertThat(policy.effectiveCadence(s)).isEqualTo(Duration.ofHours(360));
  }

  @Test
  void configuredCategoryAndFloorOverrideTheSource() {
    var custom =
        new SignalAdaptivePolicy(
            new CadenceSpec.SignalAdaptive(Category.SOCIAL, Duration.ofHours(1), 0), Category.RSS);
    SourceSnapshot s =
        warm(Category.WEBSITE)
            .avgSignalYield(5.0)
            .dominantSignalType(SignalType.EVENT)
            .medianDaysToEvent(2.0)
            .build();
    assertThat(custom.effectiveCadence(s)).isEqualTo(Duration.ofMinutes(90));
  }

  @Test
  void unknownCategoryFallsBackToTheDeploymentCategory() {
    SourceSnapshot s = SourceSnapshot.builder().build();
    assertThat(policy.effectiveCadence(s)).isEqualTo(Category.RSS.base());
  }

  @Test
  void budgetCompressionStretchesTheCadence() {
    Instant t = Instant.parse("2026-03-01T00:00:00Z");
    SourceSnapshot s = warm(Category.WEBSITE).avgSignalYield(1.0).build();
    assertThat(policy.nextDue(s, t, t, new BudgetPlan(1.0, 2.0)))
        .isEqualTo(t.plus(Duration.ofHours(504)));
  }
}
