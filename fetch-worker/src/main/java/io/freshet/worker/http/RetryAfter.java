package io.freshet.worker.http;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Reads a {@code Retry-After} header: delta-seconds or an HTTP date. */
public final class RetryAfter {

  private RetryAfter() {}

  /** When the server asks to be called again, or null when the header is absent or unreadable. */
  public static Instant parse(String header, Instant now) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String value = header.trim();
    try {
      long seconds = Long.parseLong(value);
      return seconds < 0 ? null : now.plusSeconds(Math.min(seconds, 7L * 24 * 3600));
    } catch (NumberFormatException notSeconds) {
      try {
        return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }
}
