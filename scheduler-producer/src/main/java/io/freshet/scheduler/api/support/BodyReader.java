package io.freshet.scheduler.api.support;

import io.freshet.kit.web.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.springframework.util.unit.DataSize;

/** Reads a request body up to a size cap, so that no body is buffered beyond it. */
public final class BodyReader {

  private BodyReader() {}

  /**
   * @throws ApiException 413 when the body is larger than {@code max}
   */
  public static byte[] read(InputStream body, DataSize max) {
    long limit = max.toBytes();
    try {
      byte[] bytes = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
      if (bytes.length > limit) {
        throw ApiException.tooLarge("body: larger than the limit of " + describe(max));
      }
      return bytes;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the request body", e);
    }
  }

  /**
   * Reads and decodes UTF-8 text, dropping a byte-order mark.
   *
   * @throws ApiException 400 when the bytes are not UTF-8, 413 when too large
   */
  public static String readUtf8(InputStream body, DataSize max) {
    byte[] bytes = read(body, max);
    try {
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      return text.startsWith("\uFEFF") ? text.substring(1) : text;
    } catch (CharacterCodingException e) {
      throw ApiException.badRequest("body: is not valid UTF-8");
    }
  }

  static String describe(DataSize size) {
    long bytes = size.toBytes();
    if (bytes % (1024 * 1024) == 0) {
      return size.toMegabytes() + " MB";
    }
    if (bytes % 1024 == 0) {
      return size.toKilobytes() + " KB";
    }
    return bytes + " bytes";
  }
}
