package io.freshet.cadence.estimate;

/**
 * Online change-rate estimate for one source, fed by what its fetches observed; older evidence
 * fades exponentially with time constant {@code window}, so a source that goes quiet loosens and
 * one that wakes up tightens within about one window.
 *
 * <p>Feed-like sources report items (count and the time span they cover); page-like sources report
 * only changed / not changed. Item evidence wins when present because it is far richer. Not
 * thread-safe: one instance per source, updated by the one writer of that source's stats (the
 * stats-aggregator, or the simulator).
 */
public final class RateTracker {

  private static final int CAPACITY = 32;

  private final double tauHours;
  private final double priorRate;

  private double itemCount;
  private double itemExposureHours;
  private long itemUpdatedAt = Long.MIN_VALUE;

  private final double[] intervals = new double[CAPACITY];
  private final boolean[] changed = new boolean[CAPACITY];
  private final long[] observedAt = new long[CAPACITY];
  private final double[] weights = new double[CAPACITY];
  private int size;
  private int next;
  private double lastPageEstimate = -1;

  /**
   * @param windowHours the time constant of forgetting, in hours
   * @param priorRate λ₀ per hour, the rate assumed before any evidence (1 / category base)
   */
  public RateTracker(double windowHours, double priorRate) {
    if (!(windowHours > 0) || !(priorRate > 0)) {
      throw new IllegalArgumentException("window and prior rate must be positive");
    }
    this.tauHours = windowHours;
    this.priorRate = priorRate;
  }

  /**
   * A fetch at {@code atEpochSecond} saw {@code count} new items published after {@code
   * sinceEpochSecond} — normally the previous fetch; when the feed overflowed (more new items than
   * it lists), the oldest listed item's time, with that item not counted.
   */
  public void observeItems(long atEpochSecond, double count, long sinceEpochSecond) {
    decayItemsTo(atEpochSecond);
    double hours = Math.max(0, atEpochSecond - sinceEpochSecond) / 3600.0;
    itemCount += count;
    itemExposureHours += hours;
  }

  /** A fetch at {@code atEpochSecond} found the source changed (or not) since {@code since}. */
  public void observeChange(long atEpochSecond, long sinceEpochSecond, boolean didChange) {
    double hours = (atEpochSecond - sinceEpochSecond) / 3600.0;
    if (!(hours > 0)) {
      return;
    }
    intervals[next] = hours;
    changed[next] = didChange;
    observedAt[next] = atEpochSecond;
    next = (next + 1) % CAPACITY;
    size = Math.min(CAPACITY, size + 1);
  }

  /** Estimated changes per hour at {@code nowEpochSecond}. */
  public double rate(long nowEpochSecond) {
    if (itemExposureHours > 0) {
      double decay = decayFactor(nowEpochSecond, itemUpdatedAt);
      return ChangeRateEstimator.gammaPosterior(
          itemCount * decay, itemExposureHours * decay, priorRate);
    }
    if (size > 0) {
      for (int j = 0; j < size; j++) {
        weights[j] = decayFactor(nowEpochSecond, observedAt[j]);
      }
      lastPageEstimate =
          ChangeRateEstimator.choGarciaMolina(
              intervals, changed, weights, size, priorRate, lastPageEstimate);
      return lastPageEstimate;
    }
    return priorRate;
  }

  /** Whether any fetch has reported evidence yet. */
  public boolean hasEvidence() {
    return itemExposureHours > 0 || size > 0;
  }

  /**
   * The tracker's whole evidence, so that a process that keeps one tracker per source in a state
   * store (the stats-aggregator) can persist it and {@link #restore} it exactly.
   *
   * @param itemCount decayed count of items observed
   * @param itemExposureHours decayed hours the item count covers
   * @param itemUpdatedAt epoch second of the last item observation, {@code Long.MIN_VALUE} if none
   * @param intervals page observations' intervals in hours, oldest first
   * @param changed whether each page observation saw a change
   * @param observedAt epoch second of each page observation
   * @param lastPageEstimate the last page estimate (the solver's starting point), or -1
   */
  public record Snapshot(
      double itemCount,
      double itemExposureHours,
      long itemUpdatedAt,
      double[] intervals,
      boolean[] changed,
      long[] observedAt,
      double lastPageEstimate) {

    /** Whether the evidence holds any observation. */
    public boolean hasEvidence() {
      return itemExposureHours > 0 || intervals.length > 0;
    }
  }

  /** This tracker's evidence; page observations oldest first, at most the tracker's capacity. */
  public Snapshot snapshot() {
    double[] iv = new double[size];
    boolean[] ch = new boolean[size];
    long[] at = new long[size];
    int start = (next - size + CAPACITY) % CAPACITY;
    for (int j = 0; j < size; j++) {
      int k = (start + j) % CAPACITY;
      iv[j] = intervals[k];
      ch[j] = changed[k];
      at[j] = observedAt[k];
    }
    return new Snapshot(itemCount, itemExposureHours, itemUpdatedAt, iv, ch, at, lastPageEstimate);
  }

  /** A tracker with {@code snapshot}'s evidence (beyond capacity, the newest observations). */
  public static RateTracker restore(double windowHours, double priorRate, Snapshot snapshot) {
    RateTracker t = new RateTracker(windowHours, priorRate);
    t.itemCount = snapshot.itemCount();
    t.itemExposureHours = snapshot.itemExposureHours();
    t.itemUpdatedAt = snapshot.itemUpdatedAt();
    int n = snapshot.intervals().length;
    for (int j = Math.max(0, n - CAPACITY); j < n; j++) {
      t.intervals[t.next] = snapshot.intervals()[j];
      t.changed[t.next] = snapshot.changed()[j];
      t.observedAt[t.next] = snapshot.observedAt()[j];
      t.next = (t.next + 1) % CAPACITY;
      t.size = Math.min(CAPACITY, t.size + 1);
    }
    t.lastPageEstimate = snapshot.lastPageEstimate();
    return t;
  }

  private void decayItemsTo(long at) {
    if (itemUpdatedAt != Long.MIN_VALUE) {
      double d = decayFactor(at, itemUpdatedAt);
      itemCount *= d;
      itemExposureHours *= d;
    }
    itemUpdatedAt = at;
  }

  private double decayFactor(long now, long then) {
    if (then == Long.MIN_VALUE || now <= then) {
      return 1.0;
    }
    return Math.exp(-(now - then) / 3600.0 / tauHours);
  }
}
