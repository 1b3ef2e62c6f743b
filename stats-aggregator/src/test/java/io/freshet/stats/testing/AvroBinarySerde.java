package io.freshet.stats.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Plain Avro binary without a registry, for {@code TopologyTestDriver} tests only (docs/design.md,
 * Tests: driver tests may use an in-memory serde; the *IT tests use the real registry serde).
 */
public final class AvroBinarySerde<T extends SpecificRecord> implements Serde<T> {

  private final Class<T> type;

  public AvroBinarySerde(Class<T> type) {
    this.type = type;
  }

  @Override
  public Serializer<T> serializer() {
    return (topic, value) -> {
      if (value == null) {
        return null;
      }
      try {
        var out = new ByteArrayOutputStream();
        var encoder = EncoderFactory.get().binaryEncoder(out, null);
        new SpecificDatumWriter<T>(value.getSchema()).write(value, encoder);
        encoder.flush();
        return out.toByteArray();
      } catch (IOException e) {
        throw new SerializationException(e);
      }
    };
  }

  @Override
  public Deserializer<T> deserializer() {
    return (topic, bytes) -> {
      if (bytes == null) {
        return null;
      }
      try {
        return new SpecificDatumReader<>(type)
            .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
      } catch (IOException | RuntimeException e) {
        throw new SerializationException("not Avro binary of " + type.getSimpleName(), e);
      }
    };
  }
}
