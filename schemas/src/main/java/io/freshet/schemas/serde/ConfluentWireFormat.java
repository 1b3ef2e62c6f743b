package io.freshet.schemas.serde;

import java.nio.ByteBuffer;

/**
 * The Confluent wire format: one magic byte {@code 0}, the schema id as a 4-byte big-endian
 * integer, then the Avro binary encoding of the datum.
 */
public final class ConfluentWireFormat {

  public static final byte MAGIC_BYTE = 0;
  public static final int HEADER_LENGTH = 5;

  private ConfluentWireFormat() {}

  /**
   * The schema id of a serialised record.
   *
   * @throws IllegalArgumentException naming what is wrong when {@code bytes} is not in this format
   */
  public static int schemaId(byte[] bytes) {
    String problem = problem(bytes);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return ByteBuffer.wrap(bytes, 1, 4).getInt();
  }

  /** The Avro body after the header. */
  public static ByteBuffer body(byte[] bytes) {
    schemaId(bytes);
    return ByteBuffer.wrap(bytes, HEADER_LENGTH, bytes.length - HEADER_LENGTH);
  }

  /** Why {@code bytes} is not Confluent-format, or null if its header is well-formed. */
  static String problem(byte[] bytes) {
    if (bytes.length < HEADER_LENGTH) {
      return "not Confluent-format Avro: "
          + bytes.length
          + " bytes, shorter than the 5-byte header (magic byte + schema id)";
    }
    if (bytes[0] != MAGIC_BYTE) {
      return String.format(
          "not Confluent-format Avro: first byte is 0x%02X, expected the magic byte 0x00",
          bytes[0]);
    }
    return null;
  }
}
