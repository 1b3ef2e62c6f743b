package io.freshet.cadence.sim;

/**
 * One policy's line of the comparison.
 *
 * @param policy the policy's name
 * @param metrics its measured run
 * @param delayVsOracle its mean delay divided by the oracle's (NaN without an oracle run)
 */
public record PolicyReport(String policy, RunMetrics metrics, double delayVsOracle) {

  /** The report CSV's header. */
  public static final String CSV_HEADER =
      "policy,fetches,mean_delay_h,p50_delay_h,p95_delay_h,freshness,harmonic_staleness,"
          + "unseen_changes,delay_vs_oracle";

  /** This report as a CSV line (no trailing newline). */
  public String toCsv() {
    RunMetrics m = metrics;
    return String.format(
        java.util.Locale.ROOT,
        "%s,%d,%.4f,%.4f,%.4f,%.5f,%.5f,%d,%.4f",
        policy,
        m.fetches(),
        m.meanDelayHours(),
        m.p50DelayHours(),
        m.p95DelayHours(),
        m.freshness(),
        m.harmonicStaleness(),
        m.unseenChanges(),
        delayVsOracle);
  }
}
