package io.freshet.schemas.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serialises like the delegate (Apicurio's Confluent-mode serializer) but asks it only once per
 * topic and schema: the first record goes through the delegate, which resolves (and if allowed
 * registers) the schema and writes {@code 0 | id | body}; the id is read from those bytes and every
 * later record of the same schema is written directly as {@code 0 | id | Avro binary}. The bytes
 * are identical — only the per-record resolver work is saved (it cost ~20 µs a record, most of a
 * claim's serialisation time).
 */
final class SchemaIdCachingSerializer<T extends SpecificRecord> implements Serializer<T> {

  private record Key(String topic, Schema schema) {}

  private final Serializer<T> delegate;
  private final Map<Key, Integer> ids = new ConcurrentHashMap<>();
  private final Map<Schema, SpecificDatumWriter<T>> writers = new ConcurrentHashMap<>();
  private final ThreadLocal<BinaryEncoder> encoders = new ThreadLocal<>();

  SchemaIdCachingSerializer(Serializer<T> delegate) {
    this.delegate = delegate;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    delegate.configure(configs, isKey);
  }

  @Override
  public byte[] serialize(String topic, T data) {
    if (data == null) {
      return null;
    }
    Schema schema = data.getSchema();
    Key key = new Key(topic, schema);
    Integer id = ids.get(key);
    if (id == null) {
      byte[] bytes = delegate.serialize(topic, data);
      ids.put(key, ConfluentWireFormat.schemaId(bytes));
      return bytes;
    }
    try {
      var out = new ByteArrayOutputStream(256);
      out.write(ConfluentWireFormat.MAGIC_BYTE);
      out.write(id >>> 24);
      out.write(id >>> 16);
      out.write(id >>> 8);
      out.write(id);
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, encoders.get());
      encoders.set(encoder);
      writers.computeIfAbsent(schema, SpecificDatumWriter::new).write(data, encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (IOException | RuntimeException e) {
      throw new SerializationException(
          "topic " + topic + ": cannot write " + schema.getFullName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    delegate.close();
  }
}
