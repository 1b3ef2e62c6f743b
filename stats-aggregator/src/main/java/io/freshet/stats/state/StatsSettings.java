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
 *     inverse (the tracker's prior, and the centre of the population prior's broad start)
 * @param rateModel how {@code change_rate} is estimated
 */
public record StatsSettings(
    int windowSize,
    int countedHashes,
    int appliedOutcomes,
    Duration rateWindow,
    Duration priorInterval,
    RateModel rateModel) {

  /** Which estimate {@code change_rate} carries. */
  public enum Estimator {
    /**
     * Empirical Bayes (the lab's {@code adaptive_stream}): the mean of the source's {@code
     * RatePosterior} under its population's prior, learned from the task's own sources ({@code
     * StreamingPrior}), times the population's age hazard at the source's age.
     */
    POSTERIOR,
    /**
     * The earlier point estimate ({@code RateTracker}, a gamma posterior around one prior rate).
     */
    TRACKER
  }

  /**
   * The change-rate model's knobs.
   *
   * @param estimator which estimate {@code change_rate} carries
   * @param itemMemory the posterior's forgetting time constant for item evidence (feeds; the lab's
   *     60 days)
   * @param changeMemory the same for changed / not changed evidence (pages; the lab's 365 days: a
   *     page fetch tells one bit, so a dead page is told from a yearly one only over a year)
   * @param priorMemory the population prior's forgetting time constant
   * @param priorPseudoSources sources' worth of the broad prior the learned one is shrunk with
   */
  public record RateModel(
      Estimator estimator,
      Duration itemMemory,
      Duration changeMemory,
      Duration priorMemory,
      double priorPseudoSources) {

    public RateModel {
      java.util.Objects.requireNonNull(estimator, "estimator");
      for (Duration d : new Duration[] {itemMemory, changeMemory, priorMemory}) {
        if (d == null || d.isNegative() || d.isZero()) {
          throw new IllegalArgumentException("rate model memories must be positive");
        }
      }
      if (!(priorPseudoSources > 0) || priorPseudoSources > 1e6) {
        throw new IllegalArgumentException(
            "prior pseudo-sources must be in (0, 1e6], was " + priorPseudoSources);
      }
    }

    /** Posterior; items 60 d, changes 365 d; the prior a week, 1 pseudo-source. */
    public static RateModel defaults() {
      return new RateModel(
          Estimator.POSTERIOR, Duration.ofDays(60), Duration.ofDays(365), Duration.ofDays(7), 1);
    }

    /** This model with {@code other} as its estimator. */
    public RateModel withEstimator(Estimator other) {
      return new RateModel(other, itemMemory, changeMemory, priorMemory, priorPseudoSources);
    }

    public double itemMemoryHours() {
      return itemMemory.toSeconds() / 3600.0;
    }

    public double changeMemoryHours() {
      return changeMemory.toSeconds() / 3600.0;
    }

    public double priorMemoryHours() {
      return priorMemory.toSeconds() / 3600.0;
    }
  }

  /** The settings with the default {@link RateModel}. */
  public StatsSettings(
      int windowSize,
      int countedHashes,
      int appliedOutcomes,
      Duration rateWindow,
      Duration priorInterval) {
    this(
        windowSize,
        countedHashes,
        appliedOutcomes,
        rateWindow,
        priorInterval,
        RateModel.defaults());
  }

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
    java.util.Objects.requireNonNull(rateModel, "rateModel");
  }

  /**
   * Defaults: window 20, 512 hashes, 32 outcomes, 14-day rate window, 24 h prior, the default rate
   * model.
   */
  public static StatsSettings defaults() {
    return new StatsSettings(20, 512, 32, Duration.ofDays(14), Duration.ofHours(24));
  }

  /** These settings with {@code estimator} for {@code change_rate}, the rest of the model kept. */
  public StatsSettings withEstimator(Estimator estimator) {
    RateModel m = rateModel.withEstimator(estimator);
    return new StatsSettings(
        windowSize, countedHashes, appliedOutcomes, rateWindow, priorInterval, m);
  }

  public double rateWindowHours() {
    return rateWindow.toSeconds() / 3600.0;
  }

  public double priorRatePerHour() {
    return 3600.0 / priorInterval.toSeconds();
  }
}
