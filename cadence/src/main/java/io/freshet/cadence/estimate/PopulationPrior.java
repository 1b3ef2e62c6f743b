package io.freshet.cadence.estimate;

import java.util.Arrays;

/**
 * The change-rate prior of a population of sources (one category, connector or tenant), learned
 * online from its members' evidence — empirical Bayes: the prior is the population's distribution
 * of rates, estimated by the EM step for a nonparametric mixture (the new prior is the average of
 * the members' posteriors under the old one). A new source therefore starts from what sources like
 * it do; a source with no change so far is judged against how many of its peers never change; a
 * lively one is recognised as soon as its evidence leaves the bulk.
 *
 * <p>Use: {@link #accumulate} every member's posterior (computed under {@link #weights()}), then
 * {@link #commit}. A population with few members is shrunk toward a parent (e.g. the category's
 * prior for one tenant) with {@link #commit(double[], double)}. Before any commit the prior is
 * {@link #initial}: a broad log-normal around a stated rate. Not thread-safe.
 */
public final class PopulationPrior {

  /** Every grid point keeps at least this share, so no rate becomes impossible. */
  public static final double FLOOR = 1e-6;

  private final RateGrid grid;
  private final double[] weights;
  private final double[] sum;
  private int members;

  /** A population whose prior starts at {@link #initial}{@code (grid, typicalRate)}. */
  public PopulationPrior(RateGrid grid, double typicalRate) {
    this.grid = grid;
    this.weights = initial(grid, typicalRate);
    this.sum = new double[grid.size()];
  }

  /**
   * A broad prior before any population evidence: log-normal around {@code typicalRate} with a
   * standard deviation of 3 in ln λ (±1 σ spans a factor of 400).
   */
  public static double[] initial(RateGrid grid, double typicalRate) {
    double[] w = new double[grid.size()];
    double mu = Math.log(typicalRate);
    double total = 0;
    for (int k = 0; k < w.length; k++) {
      double z = (grid.logRate(k) - mu) / 3.0;
      w[k] = Math.exp(-0.5 * z * z);
      total += w[k];
    }
    for (int k = 0; k < w.length; k++) {
      w[k] /= total;
    }
    return floor(w);
  }

  public RateGrid grid() {
    return grid;
  }

  /** The current prior weights over the grid (sum 1); a live view, do not modify. */
  public double[] weights() {
    return weights;
  }

  /** Adds one member's normalised posterior under the current {@link #weights()}. */
  public void accumulate(double[] posterior) {
    for (int k = 0; k < sum.length; k++) {
      sum[k] += posterior[k];
    }
    members++;
  }

  /** Replaces the prior with the average accumulated posterior (one EM step); no-op if none. */
  public void commit() {
    commit(null, 0);
  }

  /**
   * Replaces the prior with the accumulated posteriors plus {@code parentWeight} pseudo-members
   * drawn from {@code parent}, so a small population leans on its parent and a large one on itself.
   */
  public void commit(double[] parent, double parentWeight) {
    double n = members + (parent == null ? 0 : parentWeight);
    if (n > 0) {
      for (int k = 0; k < weights.length; k++) {
        double s = sum[k] + (parent == null ? 0 : parentWeight * parent[k]);
        weights[k] = s / n;
      }
      floor(weights);
    }
    Arrays.fill(sum, 0);
    members = 0;
  }

  /** The prior mean rate, changes per hour. */
  public double mean() {
    double m = 0;
    for (int k = 0; k < weights.length; k++) {
      m += weights[k] * grid.rate(k);
    }
    return m;
  }

  private static double[] floor(double[] w) {
    double total = 0;
    for (int k = 0; k < w.length; k++) {
      w[k] = Math.max(w[k], FLOOR);
      total += w[k];
    }
    for (int k = 0; k < w.length; k++) {
      w[k] /= total;
    }
    return w;
  }
}
