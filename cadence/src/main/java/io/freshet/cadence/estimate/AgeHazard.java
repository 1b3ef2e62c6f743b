package io.freshet.cadence.estimate;

import java.util.Arrays;

/**
 * Bursts and quiet spells, learned from a population: how much more (or less) likely a change is,
 * relative to a source's mean rate λ̄, as a function of the time since its last change (its
 * <em>age</em>). A Poisson source has no memory, so its multiplier is 1 at every age; real sources
 * revise a post or a policy page again soon after a change (multiplier above 1 at small ages) and
 * go quiet after a long silence (below 1) — a renewal hazard h(age), and the rate to schedule by is
 * λ̄·h(age).
 *
 * <p>The multiplier of age bin b is (changes observed at ages in b + k) / (changes expected there
 * under λ̄ + k) over every member's observations, k = {@value #PSEUDO_CHANGES} pseudo-changes, so
 * an empty bin says 1 and a full one says what happened. Bins are {@link #EDGES_HOURS}. Evidence
 * fades with the given memory, like a {@link RatePosterior}'s.
 *
 * <p><b>Strata.</b> A burst is not the same multiple of every source's mean rate: a policy page
 * revised twice a year that is edited again the next day has a hazard there hundreds of times its
 * mean, a page that changes daily a few times at most (it cannot change much more often than it
 * does). With {@code rateEdges}, sources are pooled by their mean rate into strata and each stratum
 * learns its own curve, shrunk toward the pooled one with k pseudo-changes per bin (a stratum with
 * little evidence follows the population). Pure, not thread-safe.
 */
public final class AgeHazard {

  /**
   * Age bin edges, hours: [0, 1), [1, 3), … , [720, 2160), then a quarter, half a year, a year, two
   * years and beyond — a feed silent for five years is not one silent for three months.
   */
  public static final double[] EDGES_HOURS = {
    0, 1, 3, 6, 12, 24, 48, 96, 168, 336, 720, 2160, 4320, 8760, 17520, Double.POSITIVE_INFINITY
  };

  /** Pseudo-changes that pull a bin with little evidence to 1 (or, in a stratum, to the pooled). */
  public static final double PSEUDO_CHANGES = 5;

  /**
   * Mean-rate strata edges used by {@code adaptive}, changes per hour: less than quarterly,
   * quarterly to monthly, monthly to weekly, weekly to daily, daily to every four hours, faster.
   */
  public static final double[] RATE_STRATA = {1.0 / 2160, 1.0 / 720, 1.0 / 168, 1.0 / 24, 1.0 / 4};

  private static final int BINS = EDGES_HOURS.length - 1;

  private final double memoryHours;
  private final double[] rateEdges;
  private final int strata;
  // index 0 is the pool of every observation, 1 + s stratum s
  private final double[][] observed;
  private final double[][] expected;
  private final double[][] multiplier;
  private double sqrtMean = 1.0;
  private long updatedAt = Long.MIN_VALUE;

  /**
   * One curve for the whole population.
   *
   * @param memoryHours time constant of forgetting; infinite never forgets
   */
  public AgeHazard(double memoryHours) {
    this(memoryHours, new double[0]);
  }

  /**
   * A curve per mean-rate stratum.
   *
   * @param memoryHours time constant of forgetting; infinite never forgets
   * @param rateEdges ascending mean rates (per hour) that separate the strata; empty for one
   */
  public AgeHazard(double memoryHours, double[] rateEdges) {
    if (!(memoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    for (int i = 1; i < rateEdges.length; i++) {
      if (!(rateEdges[i] > rateEdges[i - 1])) {
        throw new IllegalArgumentException("rate edges must ascend");
      }
    }
    this.memoryHours = memoryHours;
    this.rateEdges = rateEdges.clone();
    this.strata = rateEdges.length == 0 ? 1 : rateEdges.length + 2;
    this.observed = new double[strata][BINS];
    this.expected = new double[strata][BINS];
    this.multiplier = new double[strata][BINS];
    for (double[] m : multiplier) {
      Arrays.fill(m, 1.0);
    }
  }

  /** The bin holding {@code ageHours}. */
  public static int bin(double ageHours) {
    for (int b = BINS - 1; b > 0; b--) {
      if (ageHours >= EDGES_HOURS[b]) {
        return b;
      }
    }
    return 0;
  }

  /** The multiplier h at {@code ageHours} since the last change, pooled (1 before any evidence). */
  public double multiplier(double ageHours) {
    return multiplier[0][bin(ageHours)];
  }

  /** The multiplier h at {@code ageHours} for a source of mean rate {@code meanRate} per hour. */
  public double multiplier(double ageHours, double meanRate) {
    return multiplier[row(meanRate)][bin(ageHours)];
  }

  /** The pooled multipliers per age bin of {@link #EDGES_HOURS}, a copy. */
  public double[] curve() {
    return multiplier[0].clone();
  }

  /** The multipliers per age bin for a source of mean rate {@code meanRate} per hour, a copy. */
  public double[] curve(double meanRate) {
    return multiplier[row(meanRate)].clone();
  }

  private int row(double meanRate) {
    if (strata == 1) {
      return 0;
    }
    int s = 0;
    while (s < rateEdges.length && meanRate >= rateEdges[s]) {
      s++;
    }
    return 1 + s;
  }

  /**
   * A source with mean rate {@code meanRate} (per hour) was watched from age {@code fromAgeHours}
   * for {@code hours} and showed {@code changes} changes; a change at the end of the span (its time
   * is known: a feed item) is counted in the end's bin with {@code changeAtEnd}; otherwise (a page:
   * changed somewhere in the span) the changes are spread over the bins in proportion to the time
   * spent in each, and the expectation is the chance of at least one change, 1 − e^{−λ̄t}, so that
   * an interval that can at most say "changed" is not compared with a count.
   *
   * @param now when the observation was made, epoch seconds (for forgetting)
   */
  public void observe(
      long now,
      double meanRate,
      double fromAgeHours,
      double hours,
      double changes,
      boolean changeAtEnd) {
    if (!(hours >= 0) || !(meanRate > 0)) {
      return;
    }
    decayTo(now);
    add(0, meanRate, fromAgeHours, hours, changes, changeAtEnd);
    if (strata > 1) {
      add(row(meanRate), meanRate, fromAgeHours, hours, changes, changeAtEnd);
    }
  }

  private void add(
      int r, double meanRate, double fromAgeHours, double hours, double changes, boolean atEnd) {
    double end = fromAgeHours + hours;
    double expectedTotal = atEnd ? meanRate * hours : -Math.expm1(-meanRate * hours);
    for (int b = bin(fromAgeHours); b < BINS && EDGES_HOURS[b] < end; b++) {
      double overlap = Math.min(end, EDGES_HOURS[b + 1]) - Math.max(fromAgeHours, EDGES_HOURS[b]);
      if (overlap <= 0) {
        continue;
      }
      double share = overlap / hours;
      expected[r][b] += expectedTotal * share;
      if (!atEnd) {
        observed[r][b] += changes * share;
      }
    }
    if (atEnd) {
      observed[r][bin(end)] += changes;
    }
  }

  /** Recomputes the multipliers from the evidence (call after a batch of observations). */
  public void refresh() {
    double exp = fill(0, null);
    double root = 0;
    for (int b = 0; b < BINS; b++) {
      root += expected[0][b] * Math.sqrt(multiplier[0][b]);
    }
    sqrtMean = exp > 0 ? root / exp : 1.0;
    for (int r = 1; r < strata; r++) {
      fill(r, multiplier[0]);
    }
  }

  /** Row r's multipliers, shrunk toward {@code parent} (null: 1); returns its total expectation. */
  private double fill(int r, double[] parent) {
    double obs = 0;
    double exp = 0;
    for (int b = 0; b < BINS; b++) {
      obs += observed[r][b];
      exp += expected[r][b];
    }
    // normalised so that the mean rate stays the mean: Σ observed = Σ expected × scale
    double scale = exp > 0 && obs > 0 ? exp / obs : 1.0;
    for (int b = 0; b < BINS; b++) {
      double p = parent == null ? 1.0 : parent[b];
      multiplier[r][b] =
          (observed[r][b] * scale + PSEUDO_CHANGES * p) / (expected[r][b] + PSEUDO_CHANGES);
    }
    return exp;
  }

  /**
   * The mean of √h over the ages sources were watched at (weighted by the changes expected there),
   * pooled: a fetch schedule whose density follows √h spends 1/this as much as one that ignores h,
   * so {@link ChangeShape} divides by it to keep the spend of the mean rate.
   */
  public double sqrtMean() {
    return sqrtMean;
  }

  /**
   * The hazard's whole state, to persist and {@link #restore} exactly: per row (the pool, then each
   * stratum) and age bin the faded changes observed and expected, and the multipliers of the last
   * {@link #refresh}.
   */
  public record Snapshot(
      double[][] observed,
      double[][] expected,
      double[][] multiplier,
      double sqrtMean,
      long updatedAt) {}

  public Snapshot snapshot() {
    return new Snapshot(copy(observed), copy(expected), copy(multiplier), sqrtMean, updatedAt);
  }

  /** Epoch second of the last evidence faded in, or {@link Long#MIN_VALUE} before any. */
  public long updatedAt() {
    return updatedAt;
  }

  /** Rows of the {@link Snapshot}'s arrays: the pool, then each stratum. */
  public int rows() {
    return strata;
  }

  /** Age bins of each row. */
  public static int bins() {
    return BINS;
  }

  /**
   * Puts the {@link Snapshot}'s three arrays into {@code out} without copying them first: {@code
   * observed}, {@code expected}, then {@code multiplier}, each row by row ({@link #rows} × {@link
   * #bins} doubles each). A hot path's encoding; {@link #snapshot} is the general one.
   */
  public void putArrays(java.nio.DoubleBuffer out) {
    for (double[][] a : new double[][][] {observed, expected, multiplier}) {
      for (double[] row : a) {
        out.put(row);
      }
    }
  }

  /**
   * A hazard with {@code snapshot}'s state.
   *
   * @throws IllegalArgumentException if the snapshot's rows or bins are not this shape's
   */
  public static AgeHazard restore(double memoryHours, double[] rateEdges, Snapshot snapshot) {
    AgeHazard h = new AgeHazard(memoryHours, rateEdges);
    for (double[][] a :
        new double[][][] {snapshot.observed(), snapshot.expected(), snapshot.multiplier()}) {
      if (a.length != h.strata) {
        throw new IllegalArgumentException("a hazard of " + a.length + " rows, not " + h.strata);
      }
      for (double[] row : a) {
        if (row.length != BINS) {
          throw new IllegalArgumentException(
              "a hazard row of " + row.length + " bins, not " + BINS);
        }
      }
    }
    for (int r = 0; r < h.strata; r++) {
      System.arraycopy(snapshot.observed()[r], 0, h.observed[r], 0, BINS);
      System.arraycopy(snapshot.expected()[r], 0, h.expected[r], 0, BINS);
      System.arraycopy(snapshot.multiplier()[r], 0, h.multiplier[r], 0, BINS);
    }
    h.sqrtMean = snapshot.sqrtMean();
    h.updatedAt = snapshot.updatedAt();
    return h;
  }

  private static double[][] copy(double[][] a) {
    double[][] c = new double[a.length][];
    for (int i = 0; i < a.length; i++) {
      c[i] = a[i].clone();
    }
    return c;
  }

  private void decayTo(long at) {
    if (updatedAt != Long.MIN_VALUE && at > updatedAt && memoryHours != Double.POSITIVE_INFINITY) {
      double d = Math.exp(-(at - updatedAt) / 3600.0 / memoryHours);
      for (int r = 0; r < strata; r++) {
        for (int b = 0; b < BINS; b++) {
          observed[r][b] *= d;
          expected[r][b] *= d;
        }
      }
    }
    if (at > updatedAt) {
      updatedAt = at;
    }
  }
}
