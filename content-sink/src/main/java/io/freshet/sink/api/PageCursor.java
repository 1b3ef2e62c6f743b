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
    String plain;
    try {
      plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("is not a cursor this API issued");
    }
    String[] parts = plain.split("\\|", 3);
    if (parts.length != 3 || !parts[0].equals(VERSION) || parts[2].isEmpty()) {
      throw new IllegalArgumentException("is not a cursor this API issued");
    }
    long micros;
    try {
      micros = Long.parseLong(parts[1]);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is not a cursor this API issued");
    }
    return new PageCursor(
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000),
        parts[2]);
  }

  /** The key as a content id. */
  long id() {
    try {
      return Long.parseLong(key);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is not a cursor of this list");
    }
  }
}
