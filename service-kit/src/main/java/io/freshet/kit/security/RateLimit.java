package io.freshet.kit.security;

import java.time.Duration;
import java.util.Locale;
import org.springframework.boot.convert.DurationStyle;

/**
 * A token bucket of {@code freshet.security.rate-limit.*}, written {@code <requests>/<period>}
 * (e.g. {@code 1200/1m}): {@code requests} at most at once, refilled evenly over {@code period}. A
 * value type of its own (not a nested record of {@link RateLimitSettings}), so the configuration
 * metadata shows each limit as one property, as it is set.
 *
 * @param requests the bucket's size, and how many requests one period refills
 * @param period how long a refill of {@code requests} takes
 */
public record RateLimit(long requests, Duration period) {

  public RateLimit {
    if (requests <= 0) {
      throw new IllegalArgumentException("a rate limit needs at least 1 request per period");
    }
    if (period == null || period.isNegative() || period.isZero()) {
      throw new IllegalArgumentException("a rate limit's period must be positive");
    }
  }

  /** {@code <requests>/<period>}, e.g. {@code 1200/1m} or {@code 20/1s}. */
  public static RateLimit valueOf(String text) {
    String t = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
    int slash = t.indexOf('/');
    if (slash <= 0 || slash == t.length() - 1) {
      throw new IllegalArgumentException(
          "a rate limit is written <requests>/<period>, e.g. 1200/1m; got '" + text + "'");
    }
    try {
      return new RateLimit(
          Long.parseLong(t.substring(0, slash).strip()),
          DurationStyle.detectAndParse(t.substring(slash + 1).strip()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "a rate limit is written <requests>/<period>, e.g. 1200/1m; got '" + text + "'", e);
    }
  }

  @Override
  public String toString() {
    return requests + "/" + period;
  }
}
