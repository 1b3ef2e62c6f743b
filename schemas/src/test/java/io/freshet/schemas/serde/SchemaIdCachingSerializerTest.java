package io.freshet.schemas.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.testdata.Events;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * Records after the first of their schema are written without the delegate, each thread reusing one
 * output buffer: every record's bytes must still be {@code 0 | id | Avro binary} of that record
 * alone, whatever the thread wrote before it (larger records, smaller ones, one larger than the
 * buffer it keeps).
 */
class SchemaIdCachingSerializerTest {

  private static final int ID = 0x01020304;

  /** What the registry's serializer writes: magic byte, the schema's id, the record's binary. */
  private static byte[] expected(ContentFetched record) {
    try {
      var out = new ByteArrayOutputStream();
      out.write(ConfluentWireFormat.MAGIC_BYTE);
      out.write(new byte[] {1, 2, 3, 4});
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      new SpecificDatumWriter<ContentFetched>(ContentFetched.getClassSchema())
          .write(record, encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ContentFetched withBody(int chars) {
    ContentFetched record = Events.contentFetched();
    record.setBody("b".repeat(chars));
    return record;
  }

  @Test
  void everyRecordIsWrittenAsItsOwnBytesWhateverTheThreadWroteBefore() {
    List<Integer> delegated = new ArrayList<>();
    Serializer<ContentFetched> delegate =
        (topic, data) -> {
          delegated.add(data.getBody().length());
          return expected(data);
        };
    var serializer = new SchemaIdCachingSerializer<>(delegate);
    int kept = SchemaIdCachingSerializer.KEPT_BYTES;
    List<ContentFetched> records =
        List.of(
            withBody(10),
            withBody(3_000),
            withBody(20),
            withBody(kept * 3),
            withBody(5),
            withBody(kept - 100),
            withBody(0),
            withBody(kept + 1),
            withBody(7));
    for (ContentFetched record : records) {
      assertThat(serializer.serialize("content.fetched", record))
          .as("body of %d", record.getBody().length())
          .isEqualTo(expected(record));
    }
    assertThat(delegated).containsExactly(10); // only the first went through the delegate
  }

  @Test
  void aBufferGrownPastWhatIsKeptIsLetGoAndASmallerOneKept() {
    var out = new SchemaIdCachingSerializer.Output();
    out.write(
        new byte[SchemaIdCachingSerializer.KEPT_BYTES + 1],
        0,
        SchemaIdCachingSerializer.KEPT_BYTES + 1);
    assertThat(out.copyAndRelease()).hasSize(SchemaIdCachingSerializer.KEPT_BYTES + 1);
    assertThat(out.capacity()).isLessThanOrEqualTo(SchemaIdCachingSerializer.KEPT_BYTES);

    out.write(new byte[4_000], 0, 4_000);
    assertThat(out.copyAndRelease()).hasSize(4_000);
    assertThat(out.capacity()).isGreaterThanOrEqualTo(4_000); // kept for the next record
  }
}
