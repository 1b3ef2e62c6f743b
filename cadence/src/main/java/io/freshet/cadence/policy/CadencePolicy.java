package io.freshet.cadence.policy;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Instant;

/**
 * One cadence mode's rule: when a source is next due, given what is known about it.
 *
 * <p>Cross-cutting limits that hold for every mode — the tenant tier's minimum interval and a
 * {@code Retry-After} floor — are applied by {@code CadenceEngine} on top; failure backoff is part
 * of each mode because it is clamped by the mode's own floor and ceiling.
 */
public sealed interface CadencePolicy
    permits AlwaysPolicy,
        IntervalPolicy,
        CronPolicy,
        FeedFrequencyPolicy,
        SignalAdaptivePolicy,
        AdaptivePolicy {

  /**
   * When the source is next due after an attempt that ended at {@code reference}.
   *
   * @param source the source after the attempt: {@code consecutiveMisses() > 0} means the attempt
   *     failed (and so many in a row), 0 means it succeeded or was not modified
   * @param reference when the attempt ended (or {@code last_fetch_at} when judging due-ness)
   * @param now the evaluation instant, for evidence that ages
   * @param plan the current budget plan
   */
  Instant nextDue(SourceSnapshot source, Instant reference, Instant now, BudgetPlan plan);

  /** What this source asks of the global budget, without budget pressure. */
  Demand demand(SourceSnapshot source, Instant now);
}
