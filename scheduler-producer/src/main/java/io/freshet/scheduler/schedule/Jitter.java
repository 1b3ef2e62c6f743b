package io.freshet.scheduler.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A small, deterministic, per-source delay added to due times, so that sources that failed, were
 * throttled or were imported together do not all come due in the same second again. Deterministic:
 * the same source and attempt (epoch) always get the same delay, so a replay or a test gives the
 * same schedule; different sources get delays spread evenly over {@code [0, max)}.
 */
public final class Jitter {

  private Jitter() {}

  /**
   * A fraction in {@code [0, 1)} fixed by the source and a salt (e.g. the claim's epoch): the
   * SplitMix64 finaliser over both, well spread for neighbouring inputs.
   */
  public static double fraction(UUID source, long salt) {
    long z =
        source.getMostSignificantBits()
            ^ Long.rotateLeft(source.getLeastSignificantBits(), 17)
            ^ (salt * 0x9E3779B97F4A7C15L);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return (z >>> 11) * 0x1.0p-53;
  }

  /**
   * {@code due} moved later by this source's share of {@code min(share × (due − from), cap)}: a
   * wait of an hour with share 0.1 and cap 15 min spreads over 6 min. Never earlier than {@code
   * due}.
   */
  public static Instant later(
      Instant due, Instant from, double share, Duration cap, UUID source, long salt) {
    Duration wait = Duration.between(from, due);
    if (wait.isNegative() || share <= 0 || cap.isZero()) {
      return due;
    }
    long spanMillis = Math.min((long) (wait.toMillis() * share), cap.toMillis());
    return due.plusMillis((long) (fraction(source, salt) * spanMillis));
  }

  /** {@code at} plus this source's share of {@code span}: the first due time of an import. */
  public static Instant spread(Instant at, Duration span, UUID source) {
    return at.plusMillis((long) (fraction(source, 0) * span.toMillis()));
  }
}
