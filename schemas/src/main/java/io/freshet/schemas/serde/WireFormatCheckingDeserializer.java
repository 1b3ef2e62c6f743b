package io.freshet.schemas.serde;

import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Checks the Confluent header before handing bytes to the Avro deserializer, and turns every
 * failure into a {@link SerializationException} that names the topic, the expected type and the
 * reason. A consumer wraps it in a {@link
 * org.apache.kafka.common.errors.RecordDeserializationException} that adds partition and offset;
 * services route such records to the topic's DLQ.
 */
final class WireFormatCheckingDeserializer<T> implements Deserializer<T> {

  private final Class<T> type;
  private final Deserializer<T> delegate;

  WireFormatCheckingDeserializer(Class<T> type, Deserializer<T> delegate) {
    this.type = type;
    this.delegate = delegate;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    delegate.configure(configs, isKey);
  }

  @Override
  public T deserialize(String topic, byte[] data) {
    return deserialize(topic, null, data);
  }

  @Override
  public T deserialize(String topic, Headers headers, byte[] data) {
    if (data == null) {
      return null;
    }
    String problem = ConfluentWireFormat.problem(data);
    if (problem != null) {
      throw new SerializationException(
          "topic " + topic + ": cannot read " + type.getSimpleName() + ": " + problem);
    }
    try {
      T value = delegate.deserialize(topic, headers, data);
      if (value != null && !type.isInstance(value)) {
        throw new SerializationException(
            "schema id "
                + ConfluentWireFormat.schemaId(data)
                + " decodes to "
                + value.getClass().getName());
      }
      return value;
    } catch (RuntimeException e) {
      throw new SerializationException(
          "topic "
              + topic
              + ": cannot read "
              + type.getSimpleName()
              + " with schema id "
              + ConfluentWireFormat.schemaId(data)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  @Override
  public void close() {
    delegate.close();
  }
}
