package io.freshet.schemas.serde;

import org.apache.kafka.common.errors.RecordDeserializationException;

/** Turns a consumer's deserialization failure into one line an operator can act on. */
public final class DeserializationFailures {

  private DeserializationFailures() {}

  /**
   * E.g. {@code topic freshet.fetch.requested.v1 partition 3 offset 17: topic ...: cannot read
   * FetchRequested: not Confluent-format Avro: first byte is 0x7B, expected the magic byte 0x00}.
   */
  public static String describe(RecordDeserializationException e) {
    Throwable cause = e.getCause() != null ? e.getCause() : e;
    return "topic "
        + e.topicPartition().topic()
        + " partition "
        + e.topicPartition().partition()
        + " offset "
        + e.offset()
        + ": "
        + cause.getMessage();
  }
}
