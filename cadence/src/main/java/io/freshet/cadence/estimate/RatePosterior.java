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
 * <p>Evidence fades with a time constant (each log-likelihood term is multiplied by
 * e^{−age/memory}), so a source whose rate drifts is followed; items and changed / not changed may
 * fade at different speeds (a fetch that reads items tells far more than one that tells one bit).
 *
 * <p><b>State.</b> Item evidence is kept as its two sufficient statistics — the faded item count N
 * and the faded hours T they cover, since Σ dᵢ(nᵢ ln λ − λ tᵢ) = N ln λ − T λ — and only the
 * changed / not changed evidence as a log-likelihood per grid rate, allocated on the first such
 * observation: a feed's evidence is a few numbers, a page's one array. {@link #snapshot} and {@link
 * #restore} persist it (the stats-aggregator keeps one per source in its state store). Pure and not
 * thread-safe: one instance per source, updated by the one writer of that source's stats.
 */
public final class RatePosterior {

  private final RateGrid grid;
  private final double itemMemoryHours;
  private final double changeMemoryHours;
  private double itemCount;
  private double itemHours;
  private long itemUpdatedAt = Long.MIN_VALUE;
  private double[] changeLogLik;
  private long changeUpdatedAt = Long.MIN_VALUE;
  private long observations;

  /**
   * @param memoryHours the time constant of forgetting of both kinds of evidence, hours; {@link
   *     Double#POSITIVE_INFINITY} never forgets
   */
  public RatePosterior(RateGrid grid, double memoryHours) {
    this(grid, memoryHours, memoryHours);
  }

  /**
   * @param itemMemoryHours the time constant of forgetting of item evidence, hours
   * @param changeMemoryHours that of changed / not changed evidence, hours
   */
  public RatePosterior(RateGrid grid, double itemMemoryHours, double changeMemoryHours) {
    if (!(itemMemoryHours > 0) || !(changeMemoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    this.grid = grid;
    this.itemMemoryHours = itemMemoryHours;
    this.changeMemoryHours = changeMemoryHours;
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
    if (itemUpdatedAt != Long.MIN_VALUE && atEpochSecond > itemUpdatedAt) {
      double d = decay(atEpochSecond - itemUpdatedAt, itemMemoryHours);
      itemCount *= d;
      itemHours *= d;
    }
    itemUpdatedAt = Math.max(itemUpdatedAt, atEpochSecond);
    itemCount += count;
    itemHours += hours;
    observations++;
  }

  /** A fetch at {@code atEpochSecond} found the source changed (or not) since {@code since}. */
  public void observeChange(long atEpochSecond, long sinceEpochSecond, boolean changed) {
    double hours = (atEpochSecond - sinceEpochSecond) / 3600.0;
    if (!(hours > 0)) {
      return;
    }
    if (changeLogLik == null) {
      changeLogLik = new double[grid.size()];
    } else if (changeUpdatedAt != Long.MIN_VALUE && atEpochSecond > changeUpdatedAt) {
      double d = decay(atEpochSecond - changeUpdatedAt, changeMemoryHours);
      for (int k = 0; k < changeLogLik.length; k++) {
        changeLogLik[k] *= d;
      }
    }
    changeUpdatedAt = Math.max(changeUpdatedAt, atEpochSecond);
    if (changed) {
      for (int k = 0; k < changeLogLik.length; k++) {
        changeLogLik[k] += Math.log(-Math.expm1(-grid.rate(k) * hours));
      }
    } else {
      for (int k = 0; k < changeLogLik.length; k++) {
        changeLogLik[k] -= grid.rate(k) * hours;
      }
    }
    observations++;
  }

  /** How many observations were recorded. */
  public long observations() {
    return observations;
  }

  /** Whether any of the evidence is items (a feed) rather than changed / not changed (a page). */
  public boolean hasItems() {
    return itemUpdatedAt != Long.MIN_VALUE;
  }

  /** The log-likelihood of grid rate {@code k}. */
  private double logLik(int k) {
    double l = itemCount * grid.logRate(k) - itemHours * grid.rate(k);
    return changeLogLik == null ? l : l + changeLogLik[k];
  }

  /**
   * Writes the normalised posterior under {@code prior} (weights over the grid, any scale) into
   * {@code out} and returns the posterior mean rate, changes per hour.
   */
  public double posterior(double[] prior, double[] out) {
    int n = grid.size();
    double max = Double.NEGATIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      double l = logLik(k);
      out[k] = l;
      if (prior[k] > 0) {
        max = Math.max(max, l);
      }
    }
    double sum = 0;
    double mean = 0;
    for (int k = 0; k < n; k++) {
      double p = prior[k] > 0 ? prior[k] * Math.exp(out[k] - max) : 0;
      out[k] = p;
      sum += p;
      mean += p * grid.rate(k);
    }
    if (!(sum > 0)) {
      throw new IllegalArgumentException("the prior has no weight");
    }
    for (int k = 0; k < n; k++) {
      out[k] /= sum;
    }
    return mean / sum;
  }

  /** The posterior mean rate under {@code prior}, changes per hour. */
  public double mean(double[] prior) {
    return posterior(prior, new double[grid.size()]);
  }

  /**
   * The posterior's whole evidence, to persist and {@link #restore}: the item statistics exactly,
   * the changed / not changed log-likelihood in single precision (an empty array: none).
   */
  public record Snapshot(
      double itemCount,
      double itemHours,
      long itemUpdatedAt,
      float[] changeLogLik,
      long changeUpdatedAt,
      long observations) {

    /** No evidence. */
    public static final Snapshot EMPTY =
        new Snapshot(0, 0, Long.MIN_VALUE, new float[0], Long.MIN_VALUE, 0);
  }

  /** This posterior's evidence. */
  public Snapshot snapshot() {
    float[] change = new float[changeLogLik == null ? 0 : changeLogLik.length];
    for (int k = 0; k < change.length; k++) {
      change[k] = (float) changeLogLik[k];
    }
    return new Snapshot(itemCount, itemHours, itemUpdatedAt, change, changeUpdatedAt, observations);
  }

  /**
   * A posterior with {@code snapshot}'s evidence.
   *
   * @throws IllegalArgumentException if the snapshot's log-likelihood is not over a grid of {@code
   *     grid}'s size
   */
  public static RatePosterior restore(
      RateGrid grid, double itemMemoryHours, double changeMemoryHours, Snapshot snapshot) {
    RatePosterior p = new RatePosterior(grid, itemMemoryHours, changeMemoryHours);
    float[] change = snapshot.changeLogLik();
    if (change.length != 0 && change.length != grid.size()) {
      throw new IllegalArgumentException(
          "a log-likelihood over " + change.length + " rates, not " + grid.size());
    }
    p.itemCount = snapshot.itemCount();
    p.itemHours = snapshot.itemHours();
    p.itemUpdatedAt = snapshot.itemUpdatedAt();
    if (change.length > 0) {
      p.changeLogLik = new double[change.length];
      for (int k = 0; k < change.length; k++) {
        p.changeLogLik[k] = change[k];
      }
    }
    p.changeUpdatedAt = snapshot.changeUpdatedAt();
    p.observations = snapshot.observations();
    return p;
  }

  private static double decay(long seconds, double memoryHours) {
    return memoryHours == Double.POSITIVE_INFINITY
        ? 1.0
        : Math.exp(-seconds / 3600.0 / memoryHours);
  }
}
