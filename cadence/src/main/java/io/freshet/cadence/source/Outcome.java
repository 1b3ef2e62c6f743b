package io.freshet.cadence.source;

import java.time.Instant;
import java.util.Objects;

/**
 * How a fetch attempt ended, as the scheduler learns it from {@code FetchCompleted}: {@code
 * ok}/{@code partial} are a {@link Success}, {@code not_modified} a {@link NotModified}, {@code
 * failed}/{@code expired} a {@link Failure}.
 */
public sealed interface Outcome {

  /** When the attempt finished; the reference from which the next due time is computed. */
  Instant at();

  /**
   * New content arrived ({@code ok} or {@code partial}); {@code last_fetch_at} becomes {@code at}.
   */
  record Success(Instant at) implements Outcome {
    public Success {
      Objects.requireNonNull(at, "at");
    }
  }

  /** A conditional GET answered 304: {@code last_fetch_at} moves, the cursor stays. */
  record NotModified(Instant at) implements Outcome {
    public NotModified {
      Objects.requireNonNull(at, "at");
    }
  }

  /**
   * The attempt failed; {@code last_fetch_at} is untouched (ADR 0006
   * (docs/adr/0006-per-source-cadence-and-the-due-rule.md)), misses grow by one.
   *
   * @param retryAfter the server's {@code Retry-After} as an instant, or null
   */
  record Failure(Instant at, Instant retryAfter) implements Outcome {
    public Failure {
      Objects.requireNonNull(at, "at");
    }
  }

  static Outcome success(Instant at) {
    return new Success(at);
  }

  static Outcome notModified(Instant at) {
    return new NotModified(at);
  }

  static Outcome failure(Instant at, Instant retryAfter) {
    return new Failure(at, retryAfter);
  }
}
