package io.freshet.worker.politeness;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Per-host manners. Built from {@code WorkerProperties.Politeness}; every default is there.
 *
 * @param minDelay least time between the starts of two requests to one host
 * @param maxConcurrent requests to one host at the same time
 * @param coolDownBase host-wide pause after a 429/503 without Retry-After; doubles with each one in
 *     a row
 * @param coolDownMax cap on any host-wide pause, Retry-After included
 * @param hostMinDelays per-host minimum delays that replace {@code minDelay} (lower-case host)
 */
public record PolitenessSettings(
    Duration minDelay,
    int maxConcurrent,
    Duration coolDownBase,
    Duration coolDownMax,
    Map<String, Duration> hostMinDelays) {

  public PolitenessSettings(
      Duration minDelay, int maxConcurrent, Duration coolDownBase, Duration coolDownMax) {
    this(minDelay, maxConcurrent, coolDownBase, coolDownMax, Map.of());
  }

  public PolitenessSettings {
    Map<String, Duration> lower = new java.util.HashMap<>();
    (hostMinDelays == null ? Map.<String, Duration>of() : hostMinDelays)
        .forEach((h, d) -> lower.put(h.toLowerCase(java.util.Locale.ROOT), d));
    hostMinDelays = Map.copyOf(lower);
    Objects.requireNonNull(minDelay, "minDelay");
    Objects.requireNonNull(coolDownBase, "coolDownBase");
    Objects.requireNonNull(coolDownMax, "coolDownMax");
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be >= 1");
    }
  }

  /** The minimum delay between request starts at {@code host}. */
  public Duration minDelayFor(String host) {
    return hostMinDelays.getOrDefault(host, minDelay);
  }
}
