package io.freshet.stats.topology;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Tells an outage (the schema registry unreachable while decoding) from a poison record: an outage
 * is retried until it ends, a poison record is dead-lettered at once. Only network failures count
 * as an outage: a truncated Avro body also fails with an {@code IOException} (EOF), and that is the
 * record's fault.
 */
final class InfrastructureFailures {

  /** The pause before a failed task gives up its thread, so a long outage is not a hot loop. */
  static final Duration BACKOFF = Duration.ofSeconds(2);

  private InfrastructureFailures() {}

  static boolean isInfrastructure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SocketException // ConnectException, connection reset
          || t instanceof SocketTimeoutException
          || t instanceof UnknownHostException
          || t instanceof HttpTimeoutException) {
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
