package io.freshet.worker.politeness;

import java.time.Duration;
import java.util.Objects;

/**
 * Per-host manners. Built from {@code WorkerProperties.Politeness}; every default is there.
 *
 * @param minDelay least time between the starts of two requests to one host
 * @param maxConcurrent requests to one host at the same time
 * @param coolDownBase host-wide pause after a 429/503 without Retry-After; doubles with each one in
 *     a row
 * @param coolDownMax cap on any host-wide pause, Retry-After included
 */
public record PolitenessSettings(
    Duration minDelay, int maxConcurrent, Duration coolDownBase, Duration coolDownMax) {

  public PolitenessSettings {
    Objects.requireNonNull(minDelay, "minDelay");
    Objects.requireNonNull(coolDownBase, "coolDownBase");
    Objects.requireNonNull(coolDownMax, "coolDownMax");
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be >= 1");
    }
  }
}
