package io.freshet.cadence.policy;

import java.time.Duration;

/**
 * Exponential backoff after consecutive failures: the interval doubles with each failure, at most
 * {@value #MAX_DOUBLINGS} times, and never beyond the mode's ceiling.
 */
public final class Backoff {

  /** 2⁶ = 64×: an hourly source that keeps failing is retried about every 2.7 days at most. */
  public static final int MAX_DOUBLINGS = 6;

  /** The interval failures back off from when a mode has none (always, cron). */
  public static final Duration RETRY_BASE = Duration.ofMinutes(5);

  private Backoff() {}

  /**
   * The backoff_factor(consecutive_misses) of ADR 0010
   * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md): 2^min(misses, 6).
   */
  public static double factor(int consecutiveMisses) {
    if (consecutiveMisses <= 0) {
      return 1.0;
    }
    return (double) (1L << Math.min(consecutiveMisses, MAX_DOUBLINGS));
  }

  /**
   * {@code normal} backed off for {@code consecutiveMisses} failures, capped at {@code ceiling}
   * (but never shorter than {@code normal} itself).
   */
  public static Duration apply(Duration normal, int consecutiveMisses, Duration ceiling) {
    if (consecutiveMisses <= 0) {
      return normal;
    }
    Duration base = normal.compareTo(RETRY_BASE) < 0 ? RETRY_BASE : normal;
    Duration backedOff = Durations.times(base, factor(consecutiveMisses));
    Duration cap = ceiling.compareTo(base) > 0 ? ceiling : base;
    return backedOff.compareTo(cap) > 0 ? cap : backedOff;
  }
}
