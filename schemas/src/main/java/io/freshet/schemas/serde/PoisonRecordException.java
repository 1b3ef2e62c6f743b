package io.freshet.schemas.serde;

/**
 * A record no retry can help: it cannot be decoded, fails validation, or carries a value this build
 * does not know (a newer schema's enum symbol). Every Freshet consumer sends such a record to its
 * topic's DLQ at once — the original key and bytes, this message in the {@code
 * kafka_dlt-exception-message} header — and goes on with the rest; infrastructure failures, by
 * contrast, are retried until the dependency is back.
 */
public class PoisonRecordException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public PoisonRecordException(String message, Throwable cause) {
    super(message, cause);
  }
}
