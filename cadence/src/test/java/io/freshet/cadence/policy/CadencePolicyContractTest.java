package io.freshet.cadence.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.estimate.AgeHazard;
import io.freshet.cadence.estimate.ChangeShape;
import io.freshet.cadence.estimate.HourOfWeekProfile;
import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.RateShape;
import io.freshet.cadence.source.SignalType;
import io.freshet.cadence.source.SourceSnapshot;
import io.freshet.cadence.source.Tier;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The contract every {@link CadencePolicy} keeps, through the engine as the scheduler calls it,
 * over a grid of modes, sources (rates, item dates, tiers, rate shapes), failures and budget plans:
 *
 * <ol>
 *   <li>the next due time is never before {@code now};
 *   <li>an interval is never below the tier minimum, nor after a success below the mode's floor;
 *   <li>backoff never shortens an interval: one more failure never brings the next attempt closer,
 *       and a failure is never retried sooner than a success would be refetched — except in {@code
 *       cron} mode, whose retries are never later than the next fire time (README);
 *   <li>budget compression never shortens an interval (a plan at least as tight as none).
 * </ol>
 *
 * Violations are collected and reported together, each naming its case.
 */
class CadencePolicyContractTest {

  private static final Instant NOW = Instant.parse("2026-03-04T10:17:00Z");
  private final CadenceEngine engine = new CadenceEngine(Clock.fixed(NOW, ZoneOffset.UTC));

  /** A mode and the smallest interval it may give after a success (before tier minimums). */
  private record Mode(String json, Duration floor) {}

  private static final List<Mode> MODES =
      List.of(
          new Mode("{\"mode\":\"always\"}", Duration.ZERO),
          new Mode("{\"mode\":\"interval\",\"every_minutes\":480}", Duration.ofMinutes(480)),
          new Mode("{\"mode\":\"cron\",\"expression\":\"0 7 * * MON-FRI\"}", Duration.ofSeconds(1)),
          new Mode("{\"mode\":\"feed_frequency\"}", Duration.ofMinutes(15)),
          new Mode("{\"mode\":\"signal_adaptive\",\"category\":\"social\"}", Duration.ofHours(4)),
          new Mode("{\"mode\":\"adaptive\"}", Duration.ofMinutes(5)),
          new Mode(
              "{\"mode\":\"adaptive\",\"min_minutes\":30,\"max_minutes\":2880,"
                  + "\"objective\":\"harmonic\"}",
              Duration.ofMinutes(30)));

  private static final List<BudgetPlan> TIGHTER_PLANS =
      List.of(new BudgetPlan(1, 2), new BudgetPlan(4, 1), new BudgetPlan(30, 8));

  private static List<SourceSnapshot> sources() {
    List<SourceSnapshot> out = new ArrayList<>();
    List<Function<SourceSnapshot.Builder, SourceSnapshot.Builder>> facts =
        List.of(
            b -> b,
            b -> b.changeRatePerHour(1e-4),
            b -> b.changeRatePerHour(0.05).category(Category.RSS),
            b -> b.changeRatePerHour(3.0).dominantSignalType(SignalType.EVENT),
            b -> b.changeRatePerHour(500.0).avgSignalYield(5.0).medianDaysToEvent(2.0),
            b ->
                b.recentPublishedAt(
                    List.of(NOW.minusSeconds(600), NOW.minusSeconds(4000), NOW.minusSeconds(9000))),
            b -> b.publishIntervalAvg(Duration.ofMinutes(3)),
            b -> b.changeRatePerHour(0.2).rateShape(spikyRhythm()),
            b -> b.changeRatePerHour(0.2).rateShape(burst()),
            b -> b.changeRatePerHour(0.002).rateShape(stratifiedBurst()),
            b -> b.changeRatePerHour(2.0).rateShape(nothingEver()));
    List<Tier> tiers = new ArrayList<>(Arrays.asList(Tier.values()));
    tiers.add(null);
    for (var f : facts) {
      for (Tier tier : tiers) {
        out.add(
            f.apply(SourceSnapshot.builder().lastFetchAt(NOW.minusSeconds(3600)).tier(tier))
                .build());
      }
    }
    return out;
  }

  private static RateShape spikyRhythm() {
    double[] m = new double[HourOfWeekProfile.HOURS];
    Arrays.fill(m, 0.01);
    m[HourOfWeekProfile.hourOfWeek(NOW.getEpochSecond()) + 1] = 50;
    return new ChangeShape(null, Long.MIN_VALUE, m);
  }

  private static RateShape burst() {
    AgeHazard h = new AgeHazard(Double.POSITIVE_INFINITY);
    for (int i = 0; i < 50; i++) {
      h.observe(NOW.getEpochSecond(), 0.2, 0, 0.5, 1, true);
      h.observe(NOW.getEpochSecond(), 0.2, 0.5, 40, 0, true);
    }
    h.refresh();
    return new ChangeShape(h, NOW.getEpochSecond() - 600, null);
  }

  /** A slow source's stratum curve: a burst hundreds of times its mean rate, then quiet. */
  private static RateShape stratifiedBurst() {
    AgeHazard h = new AgeHazard(Double.POSITIVE_INFINITY, AgeHazard.RATE_STRATA);
    for (int i = 0; i < 50; i++) {
      h.observe(NOW.getEpochSecond(), 0.002, 0, 2, 1, true);
      h.observe(NOW.getEpochSecond(), 0.002, 2, 2000, 0, true);
    }
    h.refresh();
    return ChangeShape.relativeTo(
        h, 0.002, NOW.getEpochSecond() - 3600, null, NOW.getEpochSecond());
  }

  private static RateShape nothingEver() {
    return new RateShape() {
      @Override
      public double multiplier(long t) {
        return 0;
      }

      @Override
      public long constantUntil(long t) {
        return t + 3600;
      }
    };
  }

  /** Seconds from now to the next due time after {@code outcome} for the row {@code before}. */
  private long wait(CadenceSpec spec, SourceSnapshot before, Outcome outcome, BudgetPlan plan) {
    return Duration.between(NOW, engine.nextDueAt(spec, before, outcome, NOW, plan)).toSeconds();
  }

  @Test
  void everyPolicyKeepsTheContract() {
    List<String> violations = new ArrayList<>();
    Set<Class<?>> covered = new HashSet<>();
    int cases = 0;
    for (Mode mode : MODES) {
      CadenceSpec spec = engine.parser().parse(mode.json());
      covered.add(engine.policy(spec).getClass());
      for (SourceSnapshot s : sources()) {
        String name = mode.json() + " / " + s;
        long tierMin = s.tier() == null ? 0 : s.tier().minimumInterval().toSeconds();
        long success = wait(spec, s, new Outcome.Success(NOW), BudgetPlan.NONE);
        cases++;
        check(violations, success >= 0, name, "success before now: " + success);
        check(violations, success >= tierMin, name, "success below the tier minimum: " + success);
        check(
            violations,
            success >= mode.floor().toSeconds(),
            name,
            "success below the mode's floor " + mode.floor() + ": " + success);
        long notModified = wait(spec, s, new Outcome.NotModified(NOW), BudgetPlan.NONE);
        check(violations, notModified >= tierMin, name, "304 below the tier minimum");
        for (BudgetPlan plan : TIGHTER_PLANS) {
          long compressed = wait(spec, s, new Outcome.Success(NOW), plan);
          cases++;
          check(
              violations,
              compressed >= success,
              name,
              "plan " + plan + " shortened the interval: " + compressed + " < " + success);
        }
        long previous = -1;
        for (int misses = 0; misses < 9; misses++) {
          SourceSnapshot before = s.toBuilder().consecutiveMisses(misses).build();
          long failed = wait(spec, before, new Outcome.Failure(NOW, null), BudgetPlan.NONE);
          cases++;
          check(violations, failed >= 0, name, "retry before now after " + (misses + 1));
          check(violations, failed >= tierMin, name, "retry below the tier minimum");
          check(
              violations,
              failed >= previous,
              name,
              "failure " + (misses + 1) + " retried sooner than failure " + misses);
          boolean cron = spec instanceof CadenceSpec.Cron;
          check(
              violations,
              cron ? failed <= success : failed >= success,
              name,
              "failure " + (misses + 1) + ": " + failed + " vs success " + success);
          previous = failed;
        }
      }
    }
    assertThat(violations).isEmpty();
    assertThat(covered)
        .as("every permitted CadencePolicy is exercised")
        .containsExactlyInAnyOrder(CadencePolicy.class.getPermittedSubclasses());
    assertThat(cases).isGreaterThan(1000);
  }

  private static void check(List<String> out, boolean ok, String name, String what) {
    if (!ok) {
      out.add(name + ": " + what);
    }
  }
}
