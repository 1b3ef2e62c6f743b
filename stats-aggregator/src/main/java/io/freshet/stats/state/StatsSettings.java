package io.freshet.stats.state;

import java.time.Duration;

/**
 * The knobs of the stats' definitions.
 *
 * @param windowSize fetches in the rolling window (N, default 20)
 * @param countedHashes content hashes remembered per source so that an item is counted once
 * @param appliedOutcomes outcome identities remembered per source so that a redelivered record is
 *     applied once
 * @param rateWindow the change-rate estimator's time constant of forgetting (the adaptive mode's
 *     {@code window_days}, 14 days)
 * @param priorInterval the interval assumed before any evidence: the estimator's prior rate is its
 *     inverse
 */
public record StatsSettings(
    int windowSize,
    int countedHashes,
    int appliedOutcomes,
    Duration rateWindow,
    Duration priorInterval) {

  public StatsSettings {
    if (windowSize < 1 || windowSize > 1000) {
      throw new IllegalArgumentException("window size must be 1..1000, was " + windowSize);
    }
    if (countedHashes < 1) {
      throw new IllegalArgumentException("counted hashes must be >= 1, was " + countedHashes);
    }
    if (appliedOutcomes < 1) {
      throw new IllegalArgumentException("applied outcomes must be >= 1, was " + appliedOutcomes);
    }
    if (rateWindow.isNegative() || rateWindow.isZero()) {
      throw new IllegalArgumentException("rate window must be positive");
    }
    if (priorInterval.isNegative() || priorInterval.isZero()) {
      throw new IllegalArgumentException("prior interval must be positive");
    }
  }

  /** Defaults: window 20, 512 hashes, 32 outcomes, 14-day rate window, 24 h prior. */
  public static StatsSettings defaults() {
    return new StatsSettings(20, 512, 32, Duration.ofDays(14), Duration.ofHours(24));
  }

  public double rateWindowHours() {
    return rateWindow.toSeconds() / 3600.0;
  }

  public double priorRatePerHour() {
    return 3600.0 / priorInterval.toSeconds();
  }
}
