package io.freshet.cadence.policy;

import java.time.Duration;

/** Small arithmetic on {@link Duration}s that {@code java.time} lacks. */
public final class Durations {

  private static final double SECONDS_PER_HOUR = 3600.0;

  private Durations() {}

  /** {@code d × factor}, to the millisecond. */
  public static Duration times(Duration d, double factor) {
    return Duration.ofMillis(Math.round(d.toMillis() * factor));
  }

  /** A duration of {@code hours} hours, to the millisecond. */
  public static Duration ofHours(double hours) {
    return Duration.ofMillis(Math.round(hours * SECONDS_PER_HOUR * 1000));
  }

  /** {@code d} in (fractional) hours. */
  public static double hours(Duration d) {
    return d.toMillis() / (SECONDS_PER_HOUR * 1000);
  }

  /** {@code d} clamped to [lo, hi]. */
  public static Duration clamp(Duration d, Duration lo, Duration hi) {
    if (d.compareTo(lo) < 0) {
      return lo;
    }
    return d.compareTo(hi) > 0 ? hi : d;
  }

  /** The longer of two durations. */
  public static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }
}
