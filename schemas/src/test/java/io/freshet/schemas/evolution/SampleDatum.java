package io.freshet.schemas.evolution;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/** A datum that fills every field of a schema with a plausible value, for round-trip tests. */
final class SampleDatum {

  private SampleDatum() {}

  static Object of(Schema schema) {
    return switch (schema.getType()) {
      case RECORD -> {
        var record = new GenericData.Record(schema);
        for (Schema.Field field : schema.getFields()) {
          record.put(field.name(), of(field.schema()));
        }
        yield record;
      }
      case UNION -> of(schema.getTypes().getLast());
      case ENUM -> new GenericData.EnumSymbol(schema, schema.getEnumSymbols().getFirst());
      case ARRAY -> {
        List<Object> items = new ArrayList<>();
        items.add(of(schema.getElementType()));
        yield new GenericData.Array<>(schema, items);
      }
      case MAP -> {
        Map<String, Object> map = new HashMap<>();
        map.put("k", of(schema.getValueType()));
        yield map;
      }
      case STRING -> "sample";
      case BYTES -> ByteBuffer.wrap(new byte[] {1, 2, 3});
      case INT -> 7;
      case LONG -> 1_763_800_000_000L;
      case FLOAT -> 1.5f;
      case DOUBLE -> 2.5d;
      case BOOLEAN -> true;
      case NULL -> null;
      case FIXED -> new GenericData.Fixed(schema, new byte[schema.getFixedSize()]);
    };
  }
}
