package io.freshet.stats.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * Tells an outage (the schema registry unreachable while decoding) from a poison record: an outage
 * is retried until it ends, a poison record is dead-lettered at once.
 */
final class InfrastructureFailures {

  /** The pause before a failed task gives up its thread, so a long outage is not a hot loop. */
  static final Duration BACKOFF = Duration.ofSeconds(2);

  private InfrastructureFailures() {}

  static boolean isInfrastructure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException || t instanceof UncheckedIOException) {
        return true;
      }
    }
    return false;
  }

  static void pause() {
    try {
      Thread.sleep(BACKOFF);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
