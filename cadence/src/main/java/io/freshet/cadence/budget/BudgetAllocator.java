package io.freshet.cadence.budget;

import java.util.Collection;

/**
 * Fits the wanted fetch rate of all sources into a global budget (fetches per hour).
 *
 * <p>The non-adaptive modes are compressed proportionally: every interval is stretched by one
 * factor c = wanted / budget. Adaptive sources get the share of the budget they would have had
 * under proportional compression, and within it the allocation is optimal for their objective: one
 * price per fetch (the Lagrange multiplier of "Σ rates = budget") is found by bisection, and every
 * source takes the rate that is optimal at that price. For {@link Objective#DELAY} this is the
 * square-root rule; for {@link Objective#HARMONIC} Kolobov et al.'s closed form.
 */
public final class BudgetAllocator {

  private static final double MIN_LOG_SCALE = Math.log(1e-12);
  private static final double MAX_LOG_SCALE = Math.log(1e12);
  private static final int ITERATIONS = 200;

  private BudgetAllocator() {}

  /**
   * Plans one round.
   *
   * @param demands one per enabled source
   * @param budgetPerHour the global budget in fetches per hour; not positive means no budget
   * @param mode {@link BudgetMode#CAP} only compresses; {@link BudgetMode#FILL} also expands
   *     adaptive sources to spend the whole budget
   */
  public static BudgetPlan plan(
      Collection<? extends Demand> demands, double budgetPerHour, BudgetMode mode) {
    if (!(budgetPerHour > 0) || Double.isInfinite(budgetPerHour)) {
      return BudgetPlan.NONE;
    }
    double fixed = 0;
    double adaptive = 0;
    int adaptiveCount = 0;
    for (Demand d : demands) {
      if (d instanceof Demand.Adaptive) {
        adaptive += d.wantedRate();
        adaptiveCount++;
      } else {
        fixed += d.wantedRate();
      }
    }
    double compression = Math.max(1.0, (fixed + adaptive) / budgetPerHour);
    if (adaptiveCount == 0 || (mode == BudgetMode.CAP && compression == 1.0)) {
      return new BudgetPlan(1.0, compression);
    }
    double adaptiveBudget = budgetPerHour - fixed / compression;
    double scale = solveScale(demands, adaptiveBudget);
    if (mode == BudgetMode.CAP) {
      scale = Math.max(1.0, scale);
    }
    return new BudgetPlan(scale, compression);
  }

  /**
   * The price scale at which the adaptive demands sum to {@code target} fetches per hour, by
   * bisection on its logarithm (the sum is non-increasing in the price). When the clamps make the
   * target unreachable the nearest end of the search range is returned.
   */
  public static double solveScale(Iterable<? extends Demand> demands, double target) {
    double lo = MIN_LOG_SCALE;
    double hi = MAX_LOG_SCALE;
    for (int i = 0; i < ITERATIONS && hi - lo > 1e-9; i++) {
      double mid = 0.5 * (lo + hi);
      double scale = Math.exp(mid);
      double sum = 0;
      for (Demand d : demands) {
        if (d instanceof Demand.Adaptive a) {
          sum += a.rateAt(scale);
        }
      }
      if (sum > target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return Math.exp(0.5 * (lo + hi));
  }

  /**
   * Array form of {@link #solveScale} for large populations (the simulator): the price at which Σ
   * clamp(objective.rate(λᵢ, wᵢ, price), minᵢ, maxᵢ) = target.
   */
  public static double solvePrice(
      Objective objective,
      double[] lambda,
      double[] weight,
      double[] minRate,
      double[] maxRate,
      int n,
      double target) {
    double lo = Math.log(1e-15);
    double hi = Math.log(1e15);
    for (int i = 0; i < 100 && hi - lo > 1e-7; i++) {
      double mid = 0.5 * (lo + hi);
      double price = Math.exp(mid);
      double sum = 0;
      for (int j = 0; j < n; j++) {
        double f = objective.rate(lambda[j], weight[j], price);
        sum += Math.min(maxRate[j], Math.max(minRate[j], f));
      }
      if (sum > target) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return Math.exp(0.5 * (lo + hi));
  }

  /** Proportional compression of fixed wants: the factor every interval is stretched by. */
  public static double proportionalCompression(double wantedPerHour, double budgetPerHour) {
    if (!(budgetPerHour > 0)) {
      return 1.0;
    }
    return Math.max(1.0, wantedPerHour / budgetPerHour);
  }
}
