package io.freshet.cadence.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronPolicyTest {

  private final CadenceEngine engine = new CadenceEngine(Clock.systemUTC());
  private final CadenceSpec weekdays7amParis =
      engine
          .parser()
          .parse(
              "{\"mode\":\"cron\",\"expression\":\"0 7 * * MON-FRI\",\"zone\":\"Europe/Paris\"}");

  @Test
  void nextFireTimeAfterTheLastFetchInTheZone() {
    // Friday 2026-03-06 08:00 Paris (07:00Z) → next is Monday 2026-03-09 07:00 Paris = 06:00Z
    Instant friday = Instant.parse("2026-03-06T07:00:00Z");
    assertThat(
            engine.nextDueAt(
                weekdays7amParis, SourceSnapshot.fresh(), Outcome.success(friday), friday))
        .isEqualTo(Instant.parse("2026-03-09T06:00:00Z"));
  }

  @Test
  void followsDaylightSavingTime() {
    // Paris switches to CEST on 2026-03-29: 07:00 local is 05:00Z from then on
    Instant friday = Instant.parse("2026-03-27T07:00:00Z");
    assertThat(
            engine.nextDueAt(
                weekdays7amParis, SourceSnapshot.fresh(), Outcome.success(friday), friday))
        .isEqualTo(Instant.parse("2026-03-30T05:00:00Z"));
  }

  @Test
  void isDueOnceTheFireTimeAfterTheLastFetchHasPassed() {
    SourceSnapshot s =
        SourceSnapshot.builder().lastFetchAt(Instant.parse("2026-03-09T06:00:00Z")).build();
    assertThat(engine.isDue(weekdays7amParis, s, Instant.parse("2026-03-10T05:59:59Z"))).isFalse();
    assertThat(engine.isDue(weekdays7amParis, s, Instant.parse("2026-03-10T06:00:00Z"))).isTrue();
  }

  @Test
  void failureRetriesWithBackoffButNoLaterThanTheNextFire() {
    Instant at = Instant.parse("2026-03-09T06:00:05Z");
    assertThat(
            engine.nextDueAt(
                weekdays7amParis, SourceSnapshot.fresh(), Outcome.failure(at, null), at))
        .isEqualTo(at.plus(Duration.ofMinutes(10)));
    // 30 misses: 5 min × 2⁶ = 5 h 20 min, still before tomorrow's fire time
    SourceSnapshot failing = SourceSnapshot.builder().consecutiveMisses(30).build();
    assertThat(engine.nextDueAt(weekdays7amParis, failing, Outcome.failure(at, null), at))
        .isEqualTo(at.plus(Duration.ofMinutes(320)));
    CadenceSpec hourly = engine.parser().parse("{\"mode\":\"cron\",\"expression\":\"0 * * * *\"}");
    assertThat(engine.nextDueAt(hourly, failing, Outcome.failure(at, null), at))
        .isEqualTo(Instant.parse("2026-03-09T07:00:00Z"));
  }

  @Test
  void budgetCompressionSkipsFireTimes() {
    CronPolicy hourly =
        new CronPolicy(
            new CadenceSpec.Cron(
                "0 * * * *", java.time.ZoneOffset.UTC, io.freshet.cadence.config.CronFlavor.UNIX),
            Duration.ofHours(24));
    Instant t = Instant.parse("2026-03-09T06:00:00Z");
    assertThat(hourly.nextDue(SourceSnapshot.fresh(), t, t, new BudgetPlan(1, 3)))
        .isEqualTo(Instant.parse("2026-03-09T09:00:00Z"));
  }
}
