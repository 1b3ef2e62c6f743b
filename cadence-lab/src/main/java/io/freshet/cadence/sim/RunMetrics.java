package io.freshet.cadence.sim;

/**
 * The figures of one simulated run.
 *
 * @param fetches fetches spent in the window (the bootstrap fetch excluded)
 * @param meanDelayHours mean time from a change to the first fetch at or after it, over every
 *     change in the window; a change still unseen at the window's end counts until the end
 * @param p50DelayHours median of the same
 * @param p95DelayHours 95th percentile of the same
 * @param freshness time-averaged binary freshness: the share of source-time during which no change
 *     was pending (Cho &amp; Garcia-Molina)
 * @param harmonicStaleness time-averaged harmonic staleness H(n) of the n pending changes (Kolobov
 *     et al. 2019): 1 for one pending change, 1.5 for two, …
 * @param unseenChanges changes whose content no fetch ever saw: pushed out of a feed's list before
 *     a fetch, overwritten by a later change of a page, or still pending at the window end
 * @param changes changes in the window
 * @param scale the factor the policy's intervals were multiplied by
 * @param truncated whether the run was stopped early for spending far beyond the target
 * @param perSource each source's changes, delay and fetches (null: not measured)
 */
public record RunMetrics(
    long fetches,
    double meanDelayHours,
    double p50DelayHours,
    double p95DelayHours,
    double freshness,
    double harmonicStaleness,
    long unseenChanges,
    long changes,
    double scale,
    boolean truncated,
    PerSource perSource) {

  /** The figures without the per-source breakdown. */
  public RunMetrics(
      long fetches,
      double meanDelayHours,
      double p50DelayHours,
      double p95DelayHours,
      double freshness,
      double harmonicStaleness,
      long unseenChanges,
      long changes,
      double scale,
      boolean truncated) {
    this(
        fetches,
        meanDelayHours,
        p50DelayHours,
        p95DelayHours,
        freshness,
        harmonicStaleness,
        unseenChanges,
        changes,
        scale,
        truncated,
        null);
  }

  /**
   * Per source (indexed as the trace's sources): changes in the window, the sum of their delays in
   * hours, and the fetches spent on it (the bootstrap fetch excluded). Says where a mean delay
   * comes from: on a trace of a few sources, one source's bursts can be half of it.
   */
  public record PerSource(long[] changes, double[] delaySumHours, long[] fetches) {}
}
