package io.freshet.worker.http;

import java.time.Duration;

/**
 * Waits. Injected wherever the fetch path pauses (retry backoff, politeness delay), so unit tests
 * advance a clock instead of waiting.
 */
@FunctionalInterface
public interface Sleeper {

  /** Blocks the calling (virtual) thread for {@code duration}; returns at once if not positive. */
  void sleep(Duration duration) throws InterruptedException;

  /** The real one. */
  Sleeper SYSTEM =
      duration -> {
        if (!duration.isNegative() && !duration.isZero()) {
          Thread.sleep(duration);
        }
      };
}
