package io.freshet.cadence.policy;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;

/**
 * The {@code always} mode of ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md): due
 * at every run. After a failure it backs off from {@link Backoff#RETRY_BASE} so that a broken
 * source is not hammered at every scan.
 *
 * <p>For budget planning an always-due source counts as one fetch per {@link #SCAN_PERIOD}, the
 * scheduler's scan period.
 */
public final class AlwaysPolicy implements CadencePolicy {

  /** How often the scheduler's due scan runs; an always-due source is fetched that often. */
  public static final Duration SCAN_PERIOD = Duration.ofMinutes(1);

  private final Duration maxBackoff;

  public AlwaysPolicy(Duration maxBackoff) {
    this.maxBackoff = maxBackoff;
  }

  @Override
  public Instant nextDue(SourceSnapshot source, Instant reference, Instant now, BudgetPlan plan) {
    if (source.consecutiveMisses() == 0) {
      return reference;
    }
    return reference.plus(Backoff.apply(Duration.ZERO, source.consecutiveMisses(), maxBackoff));
  }

  @Override
  public Demand demand(SourceSnapshot source, Instant now) {
    return new Demand.Fixed(1.0 / Durations.hours(SCAN_PERIOD));
  }
}
