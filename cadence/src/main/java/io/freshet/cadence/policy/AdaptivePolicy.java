package io.freshet.cadence.policy;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.estimate.ChangeRateEstimator;
import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.RateShape;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;

/**
 * Freshet's {@code adaptive} mode: fetch each source at the rate that minimises expected staleness
 * for the fetches spent.
 *
 * <ol>
 *   <li><b>Change rate</b> λ (per hour), best evidence first: the stats' {@code change_rate}
 *       (maintained by a {@code RateTracker} over the rolling window); else the recent items'
 *       publication times ({@link ChangeRateEstimator#fromPublicationTimes}); else {@code
 *       publish_interval_avg}; else — <b>cold start</b> — the category prior λ₀ = 1 / base, so a
 *       new source starts from its category's base and is allocated like any other until evidence
 *       arrives.
 *   <li><b>Importance</b> w from signal type, urgency and yield ({@link ImportanceWeights}), or 1
 *       when {@code importance} is off.
 *   <li><b>Rate</b> f = the objective's optimum at the current price per fetch ({@link
 *       io.freshet.cadence.budget.Objective#rate}); the price is the spec's reference price times
 *       the budget plan's scale (the Lagrange multiplier the scheduler recomputes from all
 *       sources), then clamped to [1/max, 1/max(min, tier minimum)].
 *   <li>Interval 1/f; failures back off from it up to {@code max}. With a {@link RateShape}
 *       (rhythm, bursts) the same mean interval is measured in √(rate multiplier) time, so fetches
 *       crowd where changes are likely; never below the fastest nor above the slowest allowed
 *       interval.
 * </ol>
 */
public final class AdaptivePolicy implements CadencePolicy {

  private final CadenceSpec.Adaptive spec;
  private final Category fallbackCategory;
  private final double basePrice;

  public AdaptivePolicy(CadenceSpec.Adaptive spec, Category fallbackCategory) {
    this.spec = spec;
    this.fallbackCategory = fallbackCategory;
    this.basePrice = spec.objective().priceFor(1.0 / Durations.hours(spec.reference()));
  }

  /**
   * Estimated changes per hour; without any evidence (cold start) the category prior, one change
   * per category base interval.
   */
  public double estimatedRate(SourceSnapshot source, Instant now) {
    Double stated = source.changeRatePerHour();
    if (stated != null && stated > 0 && !stated.isInfinite()) {
      return stated;
    }
    double prior = 1.0 / Durations.hours(category(source).base());
    if (!source.recentPublishedAt().isEmpty()) {
      return ChangeRateEstimator.fromPublicationTimes(
          source.recentPublishedAt(), now, spec.window(), prior);
    }
    Duration avg = source.publishIntervalAvg();
    if (avg != null && !avg.isNegative() && !avg.isZero()) {
      return 1.0 / Durations.hours(avg);
    }
    return prior;
  }

  /** The importance weight used for {@code source}. */
  public double weight(SourceSnapshot source) {
    return spec.importance() ? ImportanceWeights.of(source) : 1.0;
  }

  @Override
  public Demand.Adaptive demand(SourceSnapshot source, Instant now) {
    double lambda = estimatedRate(source, now);
    Duration tightest = spec.min();
    if (source.tier() != null) {
      tightest = Durations.max(tightest, source.tier().minimumInterval());
    }
    double maxRate = 1.0 / Durations.hours(tightest);
    double minRate = Math.min(maxRate, 1.0 / Durations.hours(spec.max()));
    return new Demand.Adaptive(
        lambda, weight(source), basePrice, spec.objective(), minRate, maxRate);
  }

  @Override
  public Instant nextDue(SourceSnapshot source, Instant reference, Instant now, BudgetPlan plan) {
    Demand.Adaptive demand = demand(source, now);
    Duration interval = Durations.ofHours(1.0 / demand.rateAt(plan.priceScale()));
    RateShape shape = source.rateShape();
    if (shape != null) {
      // the fetches the mean rate earns, placed where the rate is high (√ rule instant by instant),
      // never closer than the fastest allowed rate nor farther than the slowest
      interval =
          Duration.ofSeconds(
              RateShape.wait(
                  shape,
                  reference.getEpochSecond(),
                  interval.toNanos() / 1e9,
                  (long) Math.ceil(3600 / demand.maxRate()),
                  (long) Math.floor(3600 / demand.minRate())));
    }
    if (source.consecutiveMisses() > 0) {
      // backoff stretches the interval a success would get, so it never brings a fetch closer
      interval = Backoff.apply(interval, source.consecutiveMisses(), spec.max());
    }
    return reference.plus(interval);
  }

  private Category category(SourceSnapshot source) {
    if (spec.category() != null) {
      return spec.category();
    }
    return source.category() != null ? source.category() : fallbackCategory;
  }
}
