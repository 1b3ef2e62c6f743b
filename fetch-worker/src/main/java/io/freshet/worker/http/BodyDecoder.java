package io.freshet.worker.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
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
    return readCapped(in, cap, what, -1);
  }

  private static final byte[] EMPTY = new byte[0];

  /**
   * As {@link #readCapped(InputStream, long, String)}, reading a body of the {@code expected}
   * length straight into an array of that length: no copy buffer, no growing and no final copy (a
   * fetch's largest allocations besides the parse), and nothing at all for an empty body (a 304's).
   * A body that turns out longer or shorter than expected is still read whole, under the cap.
   *
   * @param expected the declared length (Content-Length), -1 when unknown
   */
  public static byte[] readCapped(InputStream in, long cap, String what, long expected)
      throws IOException, FetchFailure {
    int first = in.read();
    if (first < 0) {
      return EMPTY;
    }
    byte[] body;
    if (expected > 0 && expected <= Math.min(cap, Integer.MAX_VALUE - 8)) {
      body = new byte[(int) expected];
      body[0] = (byte) first;
      int read = 1 + in.readNBytes(body, 1, body.length - 1);
      if (read < body.length) {
        return Arrays.copyOf(body, read); // ended early
      }
      int next = in.read();
      if (next < 0) {
        return body;
      }
      // more than declared: go on as for a body of unknown length
      return readRest(in, cap, what, body, next);
    }
    return readRest(in, cap, what, EMPTY, first);
  }

  /** The bytes {@code head} and {@code next} already read, then the rest of {@code in}. */
  private static byte[] readRest(InputStream in, long cap, String what, byte[] head, int next)
      throws IOException, FetchFailure {
    var out = new ByteArrayOutputStream(Math.max(32, head.length * 2));
    out.write(head, 0, head.length);
    out.write(next);
    long total = head.length + 1L;
    if (total > cap) {
      throw new FetchFailure(ErrorKind.TOO_LARGE, what + " exceeds " + cap + " bytes");
    }
    byte[] buffer = new byte[16 * 1024];
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
   * Reads at most {@code keep} bytes and ignores the rest (the stream is left unread past them):
   * for a document of which only a prefix counts, such as robots.txt.
   */
  public static byte[] readPrefix(InputStream in, long keep) throws IOException {
    var out = new ByteArrayOutputStream();
    byte[] buffer = new byte[16 * 1024];
    long left = keep;
    int n;
    while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) >= 0) {
      out.write(buffer, 0, n);
      left -= n;
    }
    return out.toByteArray();
  }

  /**
   * As {@link #decode(byte[], String, long)}, but what lies past {@code keep} decoded bytes is
   * dropped instead of failing the fetch.
   *
   * @throws FetchFailure {@code parse} for a corrupt stream or an unknown encoding
   */
  public static byte[] decodePrefix(byte[] raw, String contentEncoding, long keep)
      throws FetchFailure {
    String encoding =
        contentEncoding == null ? "" : contentEncoding.trim().toLowerCase(Locale.ROOT);
    try {
      return switch (encoding) {
        case "", "identity" -> raw.length <= keep ? raw : java.util.Arrays.copyOf(raw, (int) keep);
        case "gzip", "x-gzip" ->
            readPrefix(new GZIPInputStream(new ByteArrayInputStream(raw)), keep);
        case "deflate" -> {
          try {
            yield readPrefix(
                new InflaterInputStream(new ByteArrayInputStream(raw), new Inflater(false)), keep);
          } catch (java.util.zip.ZipException notZlib) {
            yield readPrefix(
                new InflaterInputStream(new ByteArrayInputStream(raw), new Inflater(true)), keep);
          }
        }
        default ->
            throw new FetchFailure(
                ErrorKind.PARSE, "unsupported Content-Encoding '" + contentEncoding + "'");
      };
    } catch (IOException e) {
      throw new FetchFailure(ErrorKind.PARSE, "corrupt " + encoding + " body: " + e.getMessage());
    }
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
