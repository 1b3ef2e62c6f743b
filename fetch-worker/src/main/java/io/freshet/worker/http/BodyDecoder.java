package io.freshet.worker.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * Reads a body from the wire under a byte cap and undoes gzip/deflate under a second cap, so a
 * small compressed bomb cannot fill the heap.
 */
public final class BodyDecoder {

  private BodyDecoder() {}

  /**
   * Reads at most {@code cap} bytes.
   *
   * @throws FetchFailure {@code too_large} when there are more
   */
  public static byte[] readCapped(InputStream in, long cap, String what)
      throws IOException, FetchFailure {
    var out = new ByteArrayOutputStream();
    byte[] buffer = new byte[16 * 1024];
    long total = 0;
    int n;
    while ((n = in.read(buffer)) >= 0) {
      total += n;
      if (total > cap) {
        throw new FetchFailure(ErrorKind.TOO_LARGE, what + " exceeds " + cap + " bytes");
      }
      out.write(buffer, 0, n);
    }
    return out.toByteArray();
  }

  /**
   * Undoes the {@code Content-Encoding} (gzip, x-gzip, deflate; identity or none returns the
   * input).
   *
   * @throws FetchFailure {@code too_large} past the cap, {@code parse} for a corrupt stream
   */
  public static byte[] decode(byte[] raw, String contentEncoding, long cap) throws FetchFailure {
    String encoding =
        contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
    try {
      return switch (encoding) {
        case "", "identity" -> raw;
        case "gzip", "x-gzip" ->
            readCapped(
                new GZIPInputStream(new ByteArrayInputStream(raw)), cap, "decompressed body");
        case "deflate" -> inflate(raw, cap);
        default ->
            throw new FetchFailure(
                ErrorKind.PARSE, "unsupported Content-Encoding '" + contentEncoding + "'");
      };
    } catch (IOException e) {
      throw new FetchFailure(ErrorKind.PARSE, "corrupt " + encoding + " body: " + e.getMessage());
    }
  }

  // "deflate" is zlib-wrapped by the standard, raw deflate by some servers: try both.
  private static byte[] inflate(byte[] raw, long cap) throws IOException, FetchFailure {
    try {
      return readCapped(
          new InflaterInputStream(new ByteArrayInputStream(raw), new Inflater(false)),
          cap,
          "decompressed body");
    } catch (java.util.zip.ZipException notZlib) {
      return readCapped(
          new InflaterInputStream(new ByteArrayInputStream(raw), new Inflater(true)),
          cap,
          "decompressed body");
    }
  }
}
