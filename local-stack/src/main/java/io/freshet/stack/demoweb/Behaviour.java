package io.freshet.stack.demoweb;

/**
 * How a demo host behaves. Every source of a host shares its behaviour, so politeness and
 * cool-downs (which are per host) meet it the way they would on the web.
 */
public enum Behaviour {
  /** Answers every request at once. */
  NORMAL(true),
  /** 429 with {@code Retry-After} to a request that follows the host's previous 200 too soon. */
  RATE_LIMITED(true),
  /** 503 on every third request to a source; the retry that follows succeeds. */
  FLAKY(true),
  /** Answers after a delay (configurable, below the fetch-worker's total timeout). */
  SLOW(true),
  /** A truncated document: no item is ever readable from it. */
  MALFORMED(false),
  /** 302 to a second URL that redirects back: never reaches a document. */
  REDIRECT_LOOP(false);

  private final boolean deliverable;

  Behaviour(boolean deliverable) {
    this.deliverable = deliverable;
  }

  /** Whether a client that retries and honours {@code Retry-After} eventually gets the content. */
  public boolean deliverable() {
    return deliverable;
  }
}
