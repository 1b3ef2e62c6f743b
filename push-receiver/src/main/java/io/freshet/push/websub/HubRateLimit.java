package io.freshet.push.websub;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A token bucket per hub host: at most {@code burst} notifications at once, refilled at {@code
 * perSecond}. A notification over the limit is answered 429 with {@code Retry-After} (the hub
 * retries; a lost one is caught by the next poll). Remembers at most {@code capacity} hosts.
 */
public final class HubRateLimit {

  private final Clock clock;
  private final double perSecond;
  private final double burst;
  private final Map<String, double[]> buckets;

  public HubRateLimit(Clock clock, double perSecond, int burst, int capacity) {
    if (perSecond <= 0 || burst < 1) {
      throw new IllegalArgumentException("perSecond must be > 0 and burst >= 1");
    }
    this.clock = clock;
    this.perSecond = perSecond;
    this.burst = burst;
    this.buckets =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
            return size() > capacity;
          }
        };
  }

  /** Takes one token of {@code hubHost}'s bucket; false when it is empty. */
  public synchronized boolean tryAcquire(String hubHost) {
    long now = clock.millis();
    double[] b = buckets.computeIfAbsent(hubHost, h -> new double[] {burst, now});
    double tokens = Math.min(burst, b[0] + (now - b[1]) / 1000.0 * perSecond);
    b[1] = now;
    if (tokens < 1) {
      b[0] = tokens;
      return false;
    }
    b[0] = tokens - 1;
    return true;
  }

  /** How long until one token is back: the {@code Retry-After} of a refusal (at least 1 s). */
  public Duration retryAfter() {
    return Duration.ofSeconds(Math.max(1, (long) Math.ceil(1 / perSecond)));
  }
}
