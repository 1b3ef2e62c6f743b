package io.freshet.sink.api;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/**
 * A keyset position: the sort time and the tie-breaking key of the last row of a page. Clients see
 * it only as an opaque string ({@link #encode()}), so the order can change without breaking them.
 *
 * @param at the last row's sort time, to the microsecond (PostgreSQL's precision)
 * @param key the last row's tie breaker (a content id, a request id)
 */
record PageCursor(Instant at, String key) {

  private static final String VERSION = "1";

  /** The earliest and latest instant the API takes: years 1 to 9999, well inside timestamptz. */
  static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

  static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

  /** Longer than any cursor this API issues (a request id is at most a few dozen characters). */
  private static final int MAX_LENGTH = 512;

  private static final String NOT_ISSUED = "is not a cursor this API issued";

  String encode() {
    long micros =
        Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000L), at.getNano() / 1_000);
    String plain = VERSION + "|" + micros + "|" + key;
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(plain.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * @throws IllegalArgumentException when {@code text} is not a cursor this API issued
   */
  static PageCursor decode(String text) {
    if (text.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(NOT_ISSUED);
    }
    String plain;
    try {
      plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(NOT_ISSUED);
    }
    String[] parts = plain.split("\\|", 3);
    if (parts.length != 3 || !parts[0].equals(VERSION) || parts[2].isEmpty()) {
      throw new IllegalArgumentException(NOT_ISSUED);
    }
    long micros;
    try {
      micros = Long.parseLong(parts[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(NOT_ISSUED);
    }
    Instant at =
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000);
    // a tampered cursor must not reach PostgreSQL with a time it cannot hold or a key it cannot
    // store (NUL) — that would be a 500, not the client's 400
    if (at.isBefore(EARLIEST) || at.isAfter(LATEST) || parts[2].chars().anyMatch(c -> c < 0x20)) {
      throw new IllegalArgumentException(NOT_ISSUED);
    }
    return new PageCursor(at, parts[2]);
  }

  /**
   * The key as a content id.
   *
   * @throws IllegalArgumentException when the key is not one (a cursor of another list, tampered)
   */
  long id() {
    try {
      return Long.parseLong(key);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is not a cursor of this list");
    }
  }
}
