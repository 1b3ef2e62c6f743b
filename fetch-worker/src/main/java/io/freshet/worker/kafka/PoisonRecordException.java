package io.freshet.worker.kafka;

/**
 * A request no retry can help: it cannot be decoded, or names a connector this worker does not
 * know. It goes to {@code freshet.fetch.requested.v1.dlq} in the batch's transaction, with this
 * message in the {@code kafka_dlt-exception-message} header.
 */
public class PoisonRecordException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PoisonRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
