package io.freshet.cadence.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.config.CadenceConfigParser;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.config.CronFlavor;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class FixedModesTest {

  private static final Instant T = Instant.parse("2026-03-02T10:15:00Z");

  @Test
  void demandsAreTheModesWantedRates() {
    assertThat(
            new IntervalPolicy(Duration.ofMinutes(30), Duration.ofHours(24))
                .demand(SourceSnapshot.fresh(), T)
                .wantedRate())
        .isCloseTo(2.0, within(1e-12));
    assertThat(
            new AlwaysPolicy(Duration.ofHours(24)).demand(SourceSnapshot.fresh(), T).wantedRate())
        .isCloseTo(60.0, within(1e-12));
    CronPolicy sixHourly =
        new CronPolicy(
            new CadenceSpec.Cron("0 */6 * * *", ZoneOffset.UTC, CronFlavor.UNIX),
            Duration.ofHours(24));
    assertThat(sixHourly.demand(SourceSnapshot.fresh(), T)).isInstanceOf(Demand.Fixed.class);
    assertThat(sixHourly.demand(SourceSnapshot.fresh(), T).wantedRate())
        .isCloseTo(1.0 / 6, within(1e-12));
    assertThat(
            new FeedFrequencyPolicy(Duration.ofMinutes(90))
                .demand(SourceSnapshot.fresh(), T)
                .wantedRate())
        .isCloseTo(1.0 / 1.5, within(1e-12));
  }

  @Test
  void aCronWithoutFutureFireTimesIsCheckedYearly() {
    CronPolicy past =
        new CronPolicy(
            new CadenceSpec.Cron("0 0 0 1 1 ? 2020", ZoneOffset.UTC, CronFlavor.QUARTZ),
            Duration.ofHours(24));
    assertThat(past.nextDue(SourceSnapshot.fresh(), T, T, BudgetPlan.NONE))
        .isEqualTo(T.plus(CronPolicy.NO_FIRE_TIME));
  }

  @Test
  void intervalCompressionStretchesAndBackoffIgnoresIt() {
    IntervalPolicy p = new IntervalPolicy(Duration.ofHours(1), Duration.ofHours(24));
    assertThat(p.nextDue(SourceSnapshot.fresh(), T, T, new BudgetPlan(1, 1.5)))
        .isEqualTo(T.plus(Duration.ofMinutes(90)));
    SourceSnapshot failed = SourceSnapshot.builder().consecutiveMisses(1).build();
    assertThat(p.nextDue(failed, T, T, new BudgetPlan(1, 1.5)))
        .isEqualTo(T.plus(Duration.ofHours(2)));
  }

  @Test
  void backoffFactorDoublesAndCaps() {
    assertThat(Backoff.factor(0)).isEqualTo(1.0);
    assertThat(Backoff.factor(1)).isEqualTo(2.0);
    assertThat(Backoff.factor(6)).isEqualTo(64.0);
    assertThat(Backoff.factor(60)).isEqualTo(64.0);
    assertThat(Backoff.apply(Duration.ofMinutes(1), 1, Duration.ofHours(1)))
        .isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void configJsonMustBeAnObjectAndModeAString() {
    CadenceConfigParser parser = new CadenceConfigParser(CadenceDefaults.standard());
    assertThatThrownBy(() -> parser.parseConfigJson("[1]"))
        .hasMessage("config_json: must be a JSON object");
    assertThatThrownBy(() -> parser.parse("{\"mode\": 5}"))
        .hasMessageStartingWith("cadence.mode: unknown mode '5'");
  }
}
