package io.freshet.schemas.serde;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
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
      Output out = outputs.get();
      out.reset();
      out.write(ConfluentWireFormat.MAGIC_BYTE);
      out.write(id >>> 24);
      out.write(id >>> 16);
      out.write(id >>> 8);
      out.write(id);
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, encoders.get());
      encoders.set(encoder);
      writers.computeIfAbsent(schema, SpecificDatumWriter::new).write(data, encoder);
      encoder.flush();
      return out.copyAndRelease();
    } catch (IOException | RuntimeException e) {
      throw new SerializationException(
          "topic " + topic + ": cannot write " + schema.getFullName() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    delegate.close();
  }

  /**
   * A thread's output buffer, used again for its next record: a new stream per record grew from a
   * small array to the record's size through a copy per doubling, then copied the result once more
   * — for a fetched item with its body, several times the record in garbage. A buffer grown past
   * {@link #KEPT_BYTES} by a large record is let go after it, so a thread keeps little.
   */
  private final ThreadLocal<Output> outputs = ThreadLocal.withInitial(Output::new);

  static final int KEPT_BYTES = 64 * 1024;

  /** An unsynchronised byte array output stream that can be reset and shrunk. */
  static final class Output extends OutputStream {
    private static final int INITIAL_BYTES = 512;
    private byte[] bytes = new byte[INITIAL_BYTES];
    private int size;

    void reset() {
      size = 0;
    }

    @Override
    public void write(int b) {
      ensure(size + 1);
      bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      java.util.Objects.checkFromIndexSize(off, len, b.length);
      ensure(size + len);
      System.arraycopy(b, off, bytes, size, len);
      size += len;
    }

    private void ensure(int needed) {
      if (needed > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2));
      }
    }

    /** What was written since the last reset, as an array of its own; a grown buffer let go. */
    byte[] copyAndRelease() {
      byte[] copy = Arrays.copyOf(bytes, size);
      if (bytes.length > KEPT_BYTES) {
        bytes = new byte[INITIAL_BYTES];
      }
      size = 0;
      return copy;
    }

    int capacity() {
      return bytes.length;
    }
  }
}
