package io.freshet.worker.http;

import java.time.Duration;
import java.time.Instant;

/**
 * What {@link HttpFetcher} asks of per-host politeness: a turn before each request, and word of how
 * the host answered. The rules (spacing, concurrency, cool-downs) are {@code HostPoliteness}'s, in
 * package {@code politeness}; the fetcher knows only this interface, so that package may build on
 * http ({@link FetchFailure}, {@link Sleeper}) without http depending on it in turn.
 */
public interface Politeness {

  /** A turn at one host; close it when the request is done. */
  interface Permit extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Waits for a turn at {@code host}, or refuses at once when the host's cool-down ends more than
   * {@code maxCoolDownWait} from now, or the turn would start after {@code notAfter}.
   *
   * @param maxCoolDownWait null to wait out any cool-down
   * @param notAfter null for no limit
   * @throws FetchFailure {@link ErrorKind#HOST_COOLING_DOWN} or {@link ErrorKind#EXPIRED}
   * @throws InterruptedException when the worker stops meanwhile
   */
  Permit acquire(String host, Duration maxCoolDownWait, Instant notAfter)
      throws InterruptedException, FetchFailure;

  /**
   * Pauses every request to {@code host} after a 429/503.
   *
   * @param retryAfter the server's Retry-After, or null
   * @return the end of the cool-down
   */
  Instant coolDown(String host, Instant retryAfter);

  /** A successful answer from {@code host}. */
  void answered(String host);

  /**
   * The host's own request for spacing (robots.txt {@code Crawl-delay}): from now on requests to
   * {@code host} start at least {@code delay} apart, or the configured delay when that is longer —
   * it never lowers the configured one. A later call replaces the host's delay ({@link
   * Duration#ZERO} drops it).
   */
  default void crawlDelay(String host, Duration delay) {}
}
