package io.freshet.scheduler.config;

/**
 * A record no retry can help: it cannot be decoded or names no valid source. It goes to the topic's
 * DLQ at once, with this message in the {@code kafka_dlt-exception-message} header.
 */
public class PoisonRecordException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PoisonRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
