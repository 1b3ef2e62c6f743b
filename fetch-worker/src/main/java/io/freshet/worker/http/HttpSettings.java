package io.freshet.worker.http;

import java.time.Duration;
import java.util.Objects;

/**
 * How the worker talks HTTP. Built from {@code WorkerProperties.Http}; every default is there.
 *
 * @param connectTimeout time to open a connection
 * @param totalTimeout time from sending a request to the last byte of its body
 * @param maxRetries retries after a 429 or 5xx (ADR 0008
 *     (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md): 3)
 * @param retryBase first retry delay; each next one doubles (1 s, 2 s, 4 s)
 * @param maxRetryWait longest Retry-After the worker waits for inside one fetch; a longer one ends
 *     the fetch and is reported as {@code retry_after} for the scheduler
 * @param maxBodyBytes cap on the bytes read from the wire
 * @param maxDecompressedBytes cap on a gzip/deflate body once decompressed
 * @param maxRedirects redirects followed per request
 * @param userAgent the User-Agent header
 */
public record HttpSettings(
    Duration connectTimeout,
    Duration totalTimeout,
    int maxRetries,
    Duration retryBase,
    Duration maxRetryWait,
    long maxBodyBytes,
    long maxDecompressedBytes,
    int maxRedirects,
    String userAgent) {

  public HttpSettings {
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(totalTimeout, "totalTimeout");
    Objects.requireNonNull(retryBase, "retryBase");
    Objects.requireNonNull(maxRetryWait, "maxRetryWait");
    Objects.requireNonNull(userAgent, "userAgent");
    if (maxRetries < 0 || maxRedirects < 0 || maxBodyBytes < 1 || maxDecompressedBytes < 1) {
      throw new IllegalArgumentException("retries/redirects >= 0 and caps >= 1 required");
    }
  }

  /** Delay before retry number {@code retry} (1-based): base, 2 base, 4 base... */
  public Duration backoff(int retry) {
    return retryBase.multipliedBy(1L << Math.min(20, retry - 1));
  }
}
