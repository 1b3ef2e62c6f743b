package io.freshet.cadence.estimate;

/**
 * One source's evidence about its change rate, as a log-likelihood over a {@link RateGrid}: the
 * posterior is that likelihood times a prior ({@link PopulationPrior}, learned from the source's
 * population), so the same evidence means "dead" in a population of dead sources and "slow" in a
 * population of slow ones.
 *
 * <p>Two kinds of evidence, both exact for a Poisson source:
 *
 * <ul>
 *   <li><b>Items</b> (feeds): n items published over T hours add n·ln λ − λT.
 *   <li><b>Changed / not changed</b> over an interval of t hours (pages): ln(1 − e^{−λt}) if it
 *       changed, −λt if not — Cho &amp; Garcia-Molina's irregular-access likelihood, used whole
 *       instead of at its maximum: a page that changed on every fetch only bounds its rate from
 *       below, and the posterior says so (its mean comes from the population's upper tail instead
 *       of saturating at ln(2n + 2)/t); a flapping page seen unchanged once is pulled back at once.
 * </ul>
 *
 * <p>Evidence fades with time constant {@code memoryHours} (each log-likelihood term is multiplied
 * by e^{−age/memory}), so a source whose rate drifts is followed. Pure and not thread-safe: one
 * instance per source, updated by the one writer of that source's stats.
 */
public final class RatePosterior {

  private final RateGrid grid;
  private final double memoryHours;
  private final double[] logLik;
  private long updatedAt = Long.MIN_VALUE;
  private long observations;

  /**
   * @param memoryHours the time constant of forgetting, hours; {@link Double#POSITIVE_INFINITY}
   *     never forgets
   */
  public RatePosterior(RateGrid grid, double memoryHours) {
    if (!(memoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    this.grid = grid;
    this.memoryHours = memoryHours;
    this.logLik = new double[grid.size()];
  }

  public RateGrid grid() {
    return grid;
  }

  /**
   * A fetch at {@code atEpochSecond} saw {@code count} items published after {@code
   * sinceEpochSecond} (the previous fetch; or, when the list may be truncated, its oldest item,
   * then not counted).
   */
  public void observeItems(long atEpochSecond, double count, long sinceEpochSecond) {
    double hours = Math.max(0, atEpochSecond - sinceEpochSecond) / 3600.0;
    if (hours == 0 && count == 0) {
      return;
    }
    decayTo(atEpochSecond);
    for (int k = 0; k < logLik.length; k++) {
      logLik[k] += count * grid.logRate(k) - grid.rate(k) * hours;
    }
    observations++;
  }

  /** A fetch at {@code atEpochSecond} found the source changed (or not) since {@code since}. */
  public void observeChange(long atEpochSecond, long sinceEpochSecond, boolean changed) {
    double hours = (atEpochSecond - sinceEpochSecond) / 3600.0;
    if (!(hours > 0)) {
      return;
    }
    decayTo(atEpochSecond);
    if (changed) {
      for (int k = 0; k < logLik.length; k++) {
        logLik[k] += Math.log(-Math.expm1(-grid.rate(k) * hours));
      }
    } else {
      for (int k = 0; k < logLik.length; k++) {
        logLik[k] -= grid.rate(k) * hours;
      }
    }
    observations++;
  }

  /** How many observations were recorded. */
  public long observations() {
    return observations;
  }

  /**
   * Writes the normalised posterior under {@code prior} (weights over the grid, any scale) into
   * {@code out} and returns the posterior mean rate, changes per hour.
   */
  public double posterior(double[] prior, double[] out) {
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < logLik.length; k++) {
      if (prior[k] > 0) {
        max = Math.max(max, logLik[k]);
      }
    }
    double sum = 0;
    double mean = 0;
    for (int k = 0; k < logLik.length; k++) {
      double p = prior[k] > 0 ? prior[k] * Math.exp(logLik[k] - max) : 0;
      out[k] = p;
      sum += p;
      mean += p * grid.rate(k);
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException("the prior has no weight");
    }
    for (int k = 0; k < out.length; k++) {
      out[k] /= sum;
    }
    return mean / sum;
  }

  /** The posterior mean rate under {@code prior}, changes per hour. */
  public double mean(double[] prior) {
    return posterior(prior, new double[logLik.length]);
  }

  private void decayTo(long at) {
    if (updatedAt != Long.MIN_VALUE && at > updatedAt && memoryHours != Double.POSITIVE_INFINITY) {
      double d = Math.exp(-(at - updatedAt) / 3600.0 / memoryHours);
      for (int k = 0; k < logLik.length; k++) {
        logLik[k] *= d;
      }
    }
    if (at > updatedAt) {
      updatedAt = at;
    }
  }
}
