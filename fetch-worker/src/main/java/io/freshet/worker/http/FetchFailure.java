package io.freshet.worker.http;

import java.time.Instant;

/**
 * A fetch that could not produce a usable answer. The message never contains credentials or query
 * strings (they may carry keys): {@link SafeUrls#describe} names the host and path only.
 */
public class FetchFailure extends Exception {

  private static final long serialVersionUID = 1L;

  private final ErrorKind kind;
  private final Integer httpStatus;
  private final int attempts;
  private final transient Instant retryAfter;

  public FetchFailure(ErrorKind kind, String message) {
    this(kind, message, null, 1, null);
  }

  public FetchFailure(
      ErrorKind kind, String message, Integer httpStatus, int attempts, Instant retryAfter) {
    super(message, null, false, false);
    this.kind = kind;
    this.httpStatus = httpStatus;
    this.attempts = attempts;
    this.retryAfter = retryAfter;
  }

  /** The same failure with the number of HTTP attempts it took. */
  public FetchFailure withAttempts(int attempts) {
    return new FetchFailure(kind, getMessage(), httpStatus, attempts, retryAfter);
  }

  public ErrorKind kind() {
    return kind;
  }

  public Integer httpStatus() {
    return httpStatus;
  }

  public int attempts() {
    return attempts;
  }

  public Instant retryAfter() {
    return retryAfter;
  }
}
