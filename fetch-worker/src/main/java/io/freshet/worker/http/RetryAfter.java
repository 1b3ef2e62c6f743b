package io.freshet.worker.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Reads a {@code Retry-After} header: delta-seconds or an HTTP date. */
public final class RetryAfter {

  /**
   * The longest wait read from the header, in either form: {@code Fri, 31 Dec 9999 ...} reads as a
   * week from now. The scheduler caps it further, at the source's interval ceiling.
   */
  public static final Duration MAX_WAIT = Duration.ofDays(7);

  private RetryAfter() {}

  /** When the server asks to be called again, or null when the header is absent or unreadable. */
  public static Instant parse(String header, Instant now) {
    if (header == null || header.isBlank()) {
      return null;
    }
    String value = header.trim();
    try {
      long seconds = Long.parseLong(value);
      return seconds < 0 ? null : now.plusSeconds(Math.min(seconds, MAX_WAIT.toSeconds()));
    } catch (NumberFormatException notSeconds) {
      try {
        Instant asked =
            ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Instant latest = now.plus(MAX_WAIT);
        return asked.isAfter(latest) ? latest : asked;
      } catch (DateTimeParseException notADate) {
        return null;
      }
    }
  }
}
