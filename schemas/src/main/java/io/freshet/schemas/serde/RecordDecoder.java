package io.freshet.schemas.serde;

import io.freshet.schemas.topic.Topic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Decodes a raw record's value with its topic's serde, for listeners that receive raw bytes so that
 * whatever fails — decoding or processing — the DLQ gets the original bytes. Undecodable input is a
 * {@link PoisonRecordException} naming topic, partition and offset.
 */
public final class RecordDecoder<V> {

  private final Deserializer<V> deserializer;

  public RecordDecoder(Topic<String, V> topic) {
    this.deserializer = topic.valueSerde().deserializer();
  }

  /**
   * @return the value, or null for a tombstone
   * @throws PoisonRecordException naming topic, partition and offset when it cannot be decoded
   */
  public V decode(ConsumerRecord<String, byte[]> record) {
    try {
      return deserializer.deserialize(record.topic(), record.headers(), record.value());
    } catch (SerializationException e) {
      throw new PoisonRecordException(
          DeserializationFailures.describe(
              record.topic(), record.partition(), record.offset(), e.getMessage()),
          e);
    }
  }
}
