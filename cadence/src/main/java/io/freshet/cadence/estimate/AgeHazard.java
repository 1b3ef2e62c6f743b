package io.freshet.cadence.estimate;

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
 * fades with the given memory, like a {@link RatePosterior}'s. Pure, not thread-safe.
 */
public final class AgeHazard {

  /** Age bin edges, hours: [0, 1), [1, 3), … , [2160, ∞). */
  public static final double[] EDGES_HOURS = {
    0, 1, 3, 6, 12, 24, 48, 96, 168, 336, 720, 2160, Double.POSITIVE_INFINITY
  };

  /** Pseudo-changes that pull a bin with little evidence to 1. */
  public static final double PSEUDO_CHANGES = 5;

  private static final int BINS = EDGES_HOURS.length - 1;

  private final double memoryHours;
  private final double[] observed = new double[BINS];
  private final double[] expected = new double[BINS];
  private final double[] multiplier = new double[BINS];
  private double sqrtMean = 1.0;
  private long updatedAt = Long.MIN_VALUE;

  /**
   * @param memoryHours time constant of forgetting; infinite never forgets
   */
  public AgeHazard(double memoryHours) {
    if (!(memoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    this.memoryHours = memoryHours;
    java.util.Arrays.fill(multiplier, 1.0);
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

  /** The multiplier h at {@code ageHours} since the last change (1 before any evidence). */
  public double multiplier(double ageHours) {
    return multiplier[bin(ageHours)];
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
    double end = fromAgeHours + hours;
    double expectedTotal = changeAtEnd ? meanRate * hours : -Math.expm1(-meanRate * hours);
    for (int b = bin(fromAgeHours); b < BINS && EDGES_HOURS[b] < end; b++) {
      double overlap = Math.min(end, EDGES_HOURS[b + 1]) - Math.max(fromAgeHours, EDGES_HOURS[b]);
      if (overlap <= 0) {
        continue;
      }
      double share = overlap / hours;
      expected[b] += expectedTotal * share;
      if (!changeAtEnd) {
        observed[b] += changes * share;
      }
    }
    if (changeAtEnd) {
      observed[bin(end)] += changes;
    }
  }

  /** Recomputes the multipliers from the evidence (call after a batch of observations). */
  public void refresh() {
    double obs = 0;
    double exp = 0;
    for (int b = 0; b < BINS; b++) {
      obs += observed[b];
      exp += expected[b];
    }
    // normalised so that the mean rate stays the mean: Σ observed = Σ expected × scale
    double scale = exp > 0 && obs > 0 ? exp / obs : 1.0;
    double root = 0;
    for (int b = 0; b < BINS; b++) {
      multiplier[b] = (observed[b] * scale + PSEUDO_CHANGES) / (expected[b] + PSEUDO_CHANGES);
      root += expected[b] * Math.sqrt(multiplier[b]);
    }
    sqrtMean = exp > 0 ? root / exp : 1.0;
  }

  /**
   * The mean of √h over the ages sources were watched at (weighted by the changes expected there):
   * a fetch schedule whose density follows √h spends 1/this as much as one that ignores h, so
   * {@link ChangeShape} divides by it to keep the spend of the mean rate.
   */
  public double sqrtMean() {
    return sqrtMean;
  }

  private void decayTo(long at) {
    if (updatedAt != Long.MIN_VALUE && at > updatedAt && memoryHours != Double.POSITIVE_INFINITY) {
      double d = Math.exp(-(at - updatedAt) / 3600.0 / memoryHours);
      for (int b = 0; b < BINS; b++) {
        observed[b] *= d;
        expected[b] *= d;
      }
    }
    if (at > updatedAt) {
      updatedAt = at;
    }
  }
}
