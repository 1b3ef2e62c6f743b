package io.freshet.cadence.budget;

/**
 * What one source asks of the global fetch budget, in fetches per hour. The scheduler collects one
 * per enabled source (from {@code CadenceEngine.demand}) and hands them to {@link
 * BudgetAllocator#plan}.
 */
public sealed interface Demand {

  /** The rate this source wants with no budget pressure. */
  double wantedRate();

  /**
   * A source whose rate is fixed by its mode ({@code interval}, {@code cron}, {@code
   * feed_frequency}, {@code signal_adaptive}, {@code always}); budget pressure stretches it
   * proportionally.
   */
  record Fixed(double wantedRate) implements Demand {
    public Fixed {
      if (!(wantedRate >= 0) || Double.isInfinite(wantedRate)) {
        throw new IllegalArgumentException("wantedRate must be finite and ≥ 0: " + wantedRate);
      }
    }
  }

  /**
   * An {@code adaptive} source: its rate is {@code objective.rate(lambda, weight, basePrice ×
   * scale)} clamped to [minRate, maxRate], and budget pressure raises the price {@code scale}.
   *
   * @param lambda estimated changes per hour
   * @param weight importance (1 = ordinary)
   * @param basePrice the price per fetch without budget pressure (from the spec's reference)
   * @param objective what the source's allocation minimises
   * @param minRate 1 / the spec's max interval
   * @param maxRate 1 / the tightest interval (spec min, tier minimum)
   */
  record Adaptive(
      double lambda,
      double weight,
      double basePrice,
      Objective objective,
      double minRate,
      double maxRate)
      implements Demand {
    public Adaptive {
      if (!(lambda >= 0) || !(weight > 0) || !(basePrice > 0) || !(minRate >= 0)) {
        throw new IllegalArgumentException("invalid adaptive demand");
      }
      if (maxRate < minRate) {
        throw new IllegalArgumentException("maxRate below minRate");
      }
    }

    /** The rate at a price {@code scale} times the base price. */
    public double rateAt(double scale) {
      double f = objective.rate(lambda, weight, basePrice * scale);
      return Math.min(maxRate, Math.max(minRate, f));
    }

    @Override
    public double wantedRate() {
      return rateAt(1.0);
    }
  }
}
