package io.freshet.cadence.estimate;

/**
 * A {@link PopulationPrior} learned from a stream of its members' fetches instead of a pass over
 * all of them: online EM for the population's distribution of change rates, for a process that sees
 * each source only when it is fetched (the stats-aggregator's tasks).
 *
 * <p>Each fetch adds the source's posterior (under the current prior) weighted by the hours since
 * its previous fetch, so that over any stretch of time every source counts for that stretch once,
 * whether it is fetched every 15 minutes or once a day — the time-weighted average of the members'
 * posteriors, which is the batch EM step's "average posterior" when each source's posterior is
 * steady over the stretch. The sums fade with time constant {@code memoryHours}, so the prior
 * follows a population that changes. It is shrunk toward {@link PopulationPrior#initial} (a broad
 * log-normal around a typical rate) by {@code pseudoSources} pseudo-members, each present for the
 * whole memory: a population of a few sources leans on the broad prior, a large one on itself.
 *
 * <p>A source's weight per fetch is capped at {@link #MAX_WEIGHT_HOURS}, so one source fetched
 * after a month's silence does not outweigh the population. Pure, not thread-safe; one instance per
 * population per writer.
 */
public final class StreamingPrior {

  /** The most one fetch counts for, hours: a week. */
  public static final double MAX_WEIGHT_HOURS = 168;

  private final RateGrid grid;
  private final double memoryHours;
  private final double pseudoSources;
  private final double[] initial;
  private final double[] sum;
  private double total;
  private long updatedAt = Long.MIN_VALUE;
  private final double[] weights;

  /**
   * @param typicalRate the broad prior's centre, changes per hour
   * @param memoryHours the time constant of forgetting, hours
   * @param pseudoSources how many sources' worth of the broad prior the learned one is shrunk with
   */
  public StreamingPrior(
      RateGrid grid, double typicalRate, double memoryHours, double pseudoSources) {
    if (!(typicalRate > 0) || !(memoryHours > 0) || !(pseudoSources > 0)) {
      throw new IllegalArgumentException(
          "typical rate, memory and pseudo-sources must be positive");
    }
    this.grid = grid;
    this.memoryHours = memoryHours;
    this.pseudoSources = pseudoSources;
    this.initial = PopulationPrior.initial(grid, typicalRate);
    this.sum = new double[grid.size()];
    this.weights = initial.clone();
  }

  /** The prior weights over the grid (sum 1); a live view, do not modify. */
  public double[] weights() {
    return weights;
  }

  /**
   * Adds one fetch of a member at {@code atEpochSecond}: its posterior under {@link #weights()}
   * (normalised), counted for {@code hours} (the time since its previous fetch; capped at {@link
   * #MAX_WEIGHT_HOURS}; nothing for zero or less).
   */
  public void add(double[] posterior, double hours, long atEpochSecond) {
    double w = Math.min(MAX_WEIGHT_HOURS, hours);
    if (!(w > 0)) {
      return;
    }
    if (updatedAt != Long.MIN_VALUE && atEpochSecond > updatedAt) {
      double d = Math.exp(-(atEpochSecond - updatedAt) / 3600.0 / memoryHours);
      for (int k = 0; k < sum.length; k++) {
        sum[k] *= d;
      }
      total *= d;
    }
    updatedAt = Math.max(updatedAt, atEpochSecond);
    for (int k = 0; k < sum.length; k++) {
      sum[k] += w * posterior[k];
    }
    total += w;
    refresh();
  }

  /** How many hours of member evidence the prior holds, faded: about sources × memory at most. */
  public double evidenceHours() {
    return total;
  }

  /** The sums, to persist and {@link #restore}. */
  public record Snapshot(double[] sum, double total, long updatedAt) {}

  public Snapshot snapshot() {
    return new Snapshot(sum.clone(), total, updatedAt);
  }

  /**
   * A prior with {@code snapshot}'s sums.
   *
   * @throws IllegalArgumentException if the snapshot is over a grid of another size
   */
  public static StreamingPrior restore(
      RateGrid grid,
      double typicalRate,
      double memoryHours,
      double pseudoSources,
      Snapshot snapshot) {
    StreamingPrior p = new StreamingPrior(grid, typicalRate, memoryHours, pseudoSources);
    if (snapshot.sum().length != grid.size()) {
      throw new IllegalArgumentException(
          "a prior over " + snapshot.sum().length + " rates, not " + grid.size());
    }
    System.arraycopy(snapshot.sum(), 0, p.sum, 0, p.sum.length);
    p.total = snapshot.total();
    p.updatedAt = snapshot.updatedAt();
    p.refresh();
    return p;
  }

  private void refresh() {
    double pseudo = pseudoSources * memoryHours;
    double n = total + pseudo;
    double norm = 0;
    for (int k = 0; k < weights.length; k++) {
      weights[k] = Math.max(PopulationPrior.FLOOR, (sum[k] + pseudo * initial[k]) / n);
      norm += weights[k];
    }
    for (int k = 0; k < weights.length; k++) {
      weights[k] /= norm;
    }
  }

  @Override
  public String toString() {
    double mean = 0;
    for (int k = 0; k < weights.length; k++) {
      mean += weights[k] * grid.rate(k);
    }
    return String.format(
        java.util.Locale.ROOT, "StreamingPrior[mean %.4g/h, evidence %.1f h]", mean, total);
  }
}
