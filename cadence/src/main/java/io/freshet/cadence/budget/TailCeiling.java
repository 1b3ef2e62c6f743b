package io.freshet.cadence.budget;

import java.util.List;

/**
 * A ceiling on every {@code adaptive} source's interval that bounds the delay's tail against a
 * fixed interval at the same budget, derived from the budget and the population's own rate
 * estimates — no constant from any trace.
 *
 * <p>Under a budget of B fetches per hour over N sources, a fixed interval fetches every source
 * every N / B hours (the <em>even-split interval</em> E); a change then waits uniformly up to E, so
 * fixed's p95 delay is 0.95 E. The square-root rule gives slow sources longer intervals than E, and
 * their changes form the tail. If a source with λ changes an hour is fetched every I hours, a
 * change there waits longer than E with probability max(0, 1 − E / I); over the population the
 * expected share of changes that wait longer than E is
 *
 * <pre>  S(C) = Σ λᵢ · max(0, 1 − E / min(Iᵢ, C)) / Σ λᵢ</pre>
 *
 * <p>when no interval may exceed C. The ceiling is the largest C ≥ E with S(C) ≤ {@link
 * #TAIL_SHARE} (5 %): then the changes the model expects put the p95 delay at most E ≈ 1.05 ×
 * fixed's, inside the 10 % the tail is allowed. A population whose slow sources are believed dead
 * (λ ≈ 0) carries little expected tail, so the ceiling stays loose there and costs nothing; it
 * binds where slow but live sources hold enough of the changes. The budget the ceiling's extra
 * fetches cost is taken from the others by the plan, like any clamp.
 */
public final class TailCeiling {

  /** The share of expected changes allowed to wait longer than the even-split interval. */
  public static final double TAIL_SHARE = 0.05;

  private TailCeiling() {}

  /**
   * The ceiling in hours.
   *
   * @param lambda each source's estimated changes per hour (λ ≥ 0)
   * @param intervalHours each source's interval without the ceiling
   * @param n how many entries of the arrays to use
   * @param evenHours the even-split interval N / B
   * @param maxHours the largest interval allowed anyway (returned when the tail is within bounds)
   */
  public static double hours(
      double[] lambda, double[] intervalHours, int n, double evenHours, double maxHours) {
    if (!(evenHours > 0) || n == 0) {
      return maxHours;
    }
    double total = 0;
    for (int i = 0; i < n; i++) {
      total += lambda[i];
    }
    if (!(total > 0)
        || share(lambda, intervalHours, n, evenHours, maxHours) <= TAIL_SHARE * total) {
      return maxHours;
    }
    // S is non-decreasing in C and S(E) = 0: bisect on log C in [E, max]
    double lo = Math.log(evenHours);
    double hi = Math.log(Math.max(evenHours, maxHours));
    for (int k = 0; k < 40 && hi - lo > 1e-4; k++) {
      double mid = 0.5 * (lo + hi);
      if (share(lambda, intervalHours, n, evenHours, Math.exp(mid)) <= TAIL_SHARE * total) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return Math.exp(lo);
  }

  /**
   * {@link #hours} for the scheduler's demands under a plan: every adaptive demand's interval at
   * the plan's price.
   */
  public static double hours(
      List<? extends Demand> demands, BudgetPlan plan, double evenHours, double maxHours) {
    double[] lambda = new double[demands.size()];
    double[] interval = new double[demands.size()];
    int n = 0;
    for (Demand d : demands) {
      if (d instanceof Demand.Adaptive a) {
        lambda[n] = a.lambda();
        double f = a.rateAt(plan.priceScale());
        interval[n] = f > 0 ? 1 / f : Double.POSITIVE_INFINITY;
        n++;
      }
    }
    return hours(lambda, interval, n, evenHours, maxHours);
  }

  /** Σ λᵢ · max(0, 1 − E / min(Iᵢ, C)), unnormalised. */
  private static double share(
      double[] lambda, double[] intervalHours, int n, double evenHours, double ceiling) {
    double s = 0;
    for (int i = 0; i < n; i++) {
      double interval = Math.min(intervalHours[i], ceiling);
      if (interval > evenHours) {
        s += lambda[i] * (1 - evenHours / interval);
      }
    }
    return s;
  }
}
