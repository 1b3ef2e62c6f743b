package io.freshet.sink.ingest;

/**
 * A record no retry can help: it cannot be decoded or fails validation. It goes to the topic's DLQ
 * with this message in the {@code kafka_dlt-exception-message} header; the rest of its batch is
 * stored.
 */
public class PoisonRecordException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PoisonRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
