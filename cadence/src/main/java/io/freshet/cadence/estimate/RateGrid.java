package io.freshet.cadence.estimate;

/**
 * The change rates a {@link RatePosterior} and a {@link PopulationPrior} reason over: {@code size}
 * points spaced evenly in log-rate between {@code lowest} and {@code highest} changes per hour. A
 * discrete grid makes any prior shape possible (the population of real sources is far from Gamma: a
 * spike of never-changing sources, a long tail of flapping ones) and makes every update a loop over
 * a few dozen numbers. Immutable and shared.
 */
public final class RateGrid {

  /**
   * Once in about eleven years to 60 times an hour, 100 points (a factor of 1.17 apart): wide
   * enough for dead sources and for sources that change on every fetch.
   */
  public static final RateGrid STANDARD = new RateGrid(1e-5, 60, 100);

  private final double[] rates;
  private final double[] logRates;

  public RateGrid(double lowest, double highest, int size) {
    if (!(lowest > 0) || !(highest > lowest) || size < 2) {
      throw new IllegalArgumentException("need 0 < lowest < highest and at least two points");
    }
    rates = new double[size];
    logRates = new double[size];
    double a = Math.log(lowest);
    double step = (Math.log(highest) - a) / (size - 1);
    for (int k = 0; k < size; k++) {
      logRates[k] = a + k * step;
      rates[k] = Math.exp(logRates[k]);
    }
  }

  public int size() {
    return rates.length;
  }

  /** The k-th rate, changes per hour. */
  public double rate(int k) {
    return rates[k];
  }

  /** ln of the k-th rate. */
  public double logRate(int k) {
    return logRates[k];
  }

  /** The index of the grid point nearest to {@code perHour} in log-rate. */
  public int nearest(double perHour) {
    double x = Math.log(Math.max(rates[0], Math.min(rates[rates.length - 1], perHour)));
    double step = logRates[1] - logRates[0];
    return (int) Math.round((x - logRates[0]) / step);
  }
}
