package io.freshet.worker.kafka;

import io.freshet.schemas.serde.DeserializationFailures;
import io.freshet.schemas.topic.Topic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/** Decodes a raw record's value with its topic's serde; undecodable input is a poison record. */
final class RecordDecoder<V> {

  private final Deserializer<V> deserializer;

  RecordDecoder(Topic<String, V> topic) {
    this.deserializer = topic.valueSerde().deserializer();
  }

  /**
   * @return the value, or null for a tombstone
   * @throws PoisonRecordException naming topic, partition and offset when it cannot be decoded
   */
  V decode(ConsumerRecord<String, byte[]> record) {
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
