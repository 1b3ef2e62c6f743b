package io.freshet.sink.ingest;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.kit.kafka.Failures;
import io.freshet.schemas.serde.DeserializationFailures;
import io.freshet.schemas.serde.PoisonRecordException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes a poll of raw records into valid values and poison records. A record is poison when it
 * cannot be deserialised or its value fails {@code validate} (an {@link IllegalArgumentException}
 * naming the field); poison goes to the sink's dead-letter topic with the original key and bytes
 * and the reason in the {@code kafka_dlt-exception-message} header. A failure that is an outage
 * (the registry unreachable) is not poison: it fails the batch, which is retried. Tombstones are
 * skipped.
 *
 * @param <E> the Avro event
 * @param <T> the validated value the listener stores
 */
public final class RecordDecoder<E, T> {

  private final Deserializer<E> deserializer;
  private final Function<E, T> validate;
  private final DeadLetterPublisher deadLetters;

  public RecordDecoder(
      Deserializer<E> deserializer, Function<E, T> validate, DeadLetterPublisher deadLetters) {
    this.deserializer = deserializer;
    this.validate = validate;
    this.deadLetters = deadLetters;
  }

  /** A decoded poll: the valid values in consumption order and the poison records. */
  public record Decoded<T>(List<T> values, List<Rejected> poison) {}

  /** A poison record and why. */
  public record Rejected(ConsumerRecord<String, byte[]> record, String reason) {}

  public Decoded<T> decode(List<ConsumerRecord<String, byte[]>> records) {
    List<T> values = new ArrayList<>(records.size());
    List<Rejected> poison = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      try {
        E event = deserializer.deserialize(record.topic(), record.headers(), record.value());
        if (event == null) {
          continue; // a tombstone carries nothing to store
        }
        values.add(validate.apply(event));
      } catch (SerializationException | IllegalArgumentException e) {
        if (Failures.isOutage(e)) {
          throw e; // the registry is unreachable: the batch is retried, the record is not poison
        }
        poison.add(
            new Rejected(
                record,
                DeserializationFailures.describe(
                    record.topic(), record.partition(), record.offset(), e.getMessage())));
      }
    }
    return new Decoded<>(values, poison);
  }

  /**
   * Publishes the poison records to the DLQ; call it after the good ones are stored. If it fails
   * (broker down) the batch fails and is retried, and storing its good records again changes
   * nothing.
   */
  public void deadLetter(List<Rejected> poison) {
    for (Rejected r : poison) {
      deadLetters.publish(r.record(), new PoisonRecordException(r.reason(), null));
    }
  }
}
