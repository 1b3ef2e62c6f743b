package io.freshet.cadence.policy;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;

/**
 * The {@code interval} mode of ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md): due
 * if {@code last_fetch_at} is missing or {@code now - last_fetch_at >= every_minutes}. Failures
 * back off from the interval, up to {@code max(every, maxBackoff)}.
 */
public final class IntervalPolicy implements CadencePolicy {

  private final Duration every;
  private final Duration maxBackoff;

  public IntervalPolicy(Duration every, Duration maxBackoff) {
    this.every = every;
    this.maxBackoff = maxBackoff;
  }

  @Override
  public Instant nextDue(SourceSnapshot source, Instant reference, Instant now, BudgetPlan plan) {
    if (source.consecutiveMisses() > 0) {
      return reference.plus(Backoff.apply(every, source.consecutiveMisses(), maxBackoff));
    }
    return reference.plus(Durations.times(every, plan.compression()));
  }

  @Override
  public Demand demand(SourceSnapshot source, Instant now) {
    return new Demand.Fixed(1.0 / Durations.hours(every));
  }

  /** The configured interval. */
  public Duration every() {
    return every;
  }
}
