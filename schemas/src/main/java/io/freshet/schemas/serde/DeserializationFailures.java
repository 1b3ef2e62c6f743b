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
    return describe(
        e.topicPartition().topic(), e.topicPartition().partition(), e.offset(), cause.getMessage());
  }

  /**
   * The same line for a record a listener could not use (it decodes the raw bytes itself, or the
   * decoded value fails validation): {@code topic T partition P offset O: reason}.
   */
  public static String describe(String topic, int partition, long offset, String reason) {
    return "topic " + topic + " partition " + partition + " offset " + offset + ": " + reason;
  }
}
