package io.freshet.worker.fetch;

/**
 * A request no fetch can answer and no retry can help (e.g. a connector symbol from a newer schema
 * that this worker does not know): the listener dead-letters it.
 */
public class UnusableRequestException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public UnusableRequestException(String message) {
    super(message);
  }
}
