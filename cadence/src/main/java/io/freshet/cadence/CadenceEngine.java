package io.freshet.cadence;

import io.freshet.cadence.budget.BudgetAllocator;
import io.freshet.cadence.budget.BudgetMode;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.config.CadenceConfigParser;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.policy.CadencePolicy;
import io.freshet.cadence.policy.Policies;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one entry point the scheduler uses: is a source due, when is it next due after an outcome,
 * and how the global budget is shared. Thread-safe and stateless apart from a cache of compiled
 * policies (cron expressions).
 *
 * <p>Rules that hold for every mode, applied here on top of the mode's own rule:
 *
 * <ul>
 *   <li>the tenant tier's minimum interval: a source is never due sooner than {@code
 *       tier.minimumInterval()} after its last attempt;
 *   <li>a {@code Retry-After} is a floor: never due before it;
 *   <li>the budget plan: adaptive sources follow its price, others its compression.
 * </ul>
 */
public final class CadenceEngine {

  private final CadenceDefaults defaults;
  private final Clock clock;
  private final CadenceConfigParser parser;
  private final Map<CadenceSpec, CadencePolicy> policies = new ConcurrentHashMap<>();

  public CadenceEngine(CadenceDefaults defaults, Clock clock) {
    this.defaults = Objects.requireNonNull(defaults, "defaults");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.parser = new CadenceConfigParser(defaults, clock);
  }

  /** An engine with Freshet's standard defaults. */
  public CadenceEngine(Clock clock) {
    this(CadenceDefaults.standard(), clock);
  }

  /** The parser for {@code config_json.cadence} with this engine's defaults. */
  public CadenceConfigParser parser() {
    return parser;
  }

  /** The deployment defaults. */
  public CadenceDefaults defaults() {
    return defaults;
  }

  /** {@link #isDue(CadenceSpec, SourceSnapshot, Instant)} at the clock's instant. */
  public boolean isDue(CadenceSpec spec, SourceSnapshot source) {
    return isDue(spec, source, clock.instant());
  }

  /** {@link #isDue(CadenceSpec, SourceSnapshot, Instant, BudgetPlan)} without budget pressure. */
  public boolean isDue(CadenceSpec spec, SourceSnapshot source, Instant now) {
    return isDue(spec, source, now, BudgetPlan.NONE);
  }

  /**
   * The due rule of ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md), for batch runs
   * ({@code now} = the run's {@code windowEnd}) and scans: due if {@code last_fetch_at} is missing,
   * otherwise if {@code now} has reached the mode's next due time after {@code last_fetch_at} — for
   * {@code interval} exactly {@code now - last_fetch_at >= every_minutes}, for {@code always} at
   * every run. A skipped source keeps its {@code last_fetch_at}: this method changes nothing. On
   * top: not before a {@code Retry-After}, not sooner than the tier minimum after the last fetch.
   */
  public boolean isDue(CadenceSpec spec, SourceSnapshot source, Instant now, BudgetPlan plan) {
    if (source.retryAfter() != null && now.isBefore(source.retryAfter())) {
      return false;
    }
    Instant last = source.lastFetchAt();
    if (last == null) {
      return true;
    }
    // Due-ness is judged as after a successful fetch at last_fetch_at: misses do not delay a batch
    // run (ADR 0006 keeps last_fetch_at on failure so that the next run retries).
    SourceSnapshot judged = source.toBuilder().consecutiveMisses(0).build();
    Instant due = limits(policy(spec).nextDue(judged, last, now, plan), judged, last);
    return !now.isBefore(due);
  }

  /** {@link #nextDueAt(CadenceSpec, SourceSnapshot, Outcome, Instant, BudgetPlan)}, no budget. */
  public Instant nextDueAt(CadenceSpec spec, SourceSnapshot source, Outcome outcome, Instant now) {
    return nextDueAt(spec, source, outcome, now, BudgetPlan.NONE);
  }

  /**
   * When the source is next due after {@code outcome}.
   *
   * @param source the row before the outcome is applied (the engine applies it: see {@link
   *     SourceSnapshot#after}); stats fields as last received
   * @param outcome success, not-modified (both reschedule from the fetch time) or failure (backoff
   *     from the failure time, {@code Retry-After} floor)
   * @param now the evaluation instant
   * @param plan the current budget plan ({@link #planBudget})
   */
  public Instant nextDueAt(
      CadenceSpec spec, SourceSnapshot source, Outcome outcome, Instant now, BudgetPlan plan) {
    SourceSnapshot after = source.after(outcome);
    Instant reference = outcome.at();
    return limits(policy(spec).nextDue(after, reference, now, plan), after, reference);
  }

  /** What {@code source} asks of the global budget (collect one per source for planning). */
  public Demand demand(CadenceSpec spec, SourceSnapshot source, Instant now) {
    return policy(spec).demand(source, now);
  }

  /**
   * One budget planning round over all sources' demands: the price scale for {@code adaptive}
   * sources (Lagrange multiplier, by bisection) and the proportional compression for the others.
   * The scheduler recomputes it periodically and passes it to {@link #nextDueAt}.
   */
  public BudgetPlan planBudget(
      Collection<? extends Demand> demands, double budgetPerHour, BudgetMode mode) {
    return BudgetAllocator.plan(demands, budgetPerHour, mode);
  }

  /** The compiled policy of {@code spec}. */
  public CadencePolicy policy(CadenceSpec spec) {
    return policies.computeIfAbsent(spec, s -> Policies.of(s, defaults));
  }

  private static Instant limits(Instant due, SourceSnapshot source, Instant reference) {
    if (source.tier() != null) {
      Instant tierFloor = reference.plus(source.tier().minimumInterval());
      if (due.isBefore(tierFloor)) {
        due = tierFloor;
      }
    }
    if (source.retryAfter() != null && due.isBefore(source.retryAfter())) {
      due = source.retryAfter();
    }
    return due;
  }

  /** The interval the mode wants after a successful fetch now (for display and planning). */
  public Duration wantedInterval(CadenceSpec spec, SourceSnapshot source, Instant now) {
    SourceSnapshot ok = source.toBuilder().consecutiveMisses(0).build();
    return Duration.between(
        now, limits(policy(spec).nextDue(ok, now, now, BudgetPlan.NONE), ok, now));
  }
}
