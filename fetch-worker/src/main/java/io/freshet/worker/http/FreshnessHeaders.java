package io.freshet.worker.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * How long a response says it stays fresh (RFC 9111 §4.2.1, for a private cache): {@code
 * Cache-Control: max-age}, else {@code Expires} minus {@code Date} (or minus now when {@code Date}
 * is missing). {@code no-cache} and {@code no-store} mean "no hint"; so does an unreadable or past
 * {@code Expires}. The value is what the server said, uncapped: the scheduler caps it.
 */
public final class FreshnessHeaders {

  /** Longest header value read; a longer one is hostile or broken, and gives no hint. */
  private static final int MAX_HEADER_LENGTH = 1_024;

  private FreshnessHeaders() {}

  /**
   * @param cacheControl the {@code Cache-Control} header, or null
   * @param expires the {@code Expires} header, or null
   * @param date the {@code Date} header, or null
   * @param now when the response arrived
   * @return the freshness lifetime, or null when the response gives none
   */
  public static Duration maxAge(String cacheControl, String expires, String date, Instant now) {
    if (cacheControl != null && cacheControl.length() <= MAX_HEADER_LENGTH) {
      Duration fromCacheControl = null;
      for (String directive : cacheControl.split(",")) {
        String d = directive.trim().toLowerCase(Locale.ROOT);
        if (d.equals("no-cache") || d.equals("no-store")) {
          return null;
        }
        if (d.startsWith("max-age=")) {
          fromCacheControl = seconds(d.substring("max-age=".length()));
        }
      }
      if (fromCacheControl != null) {
        return fromCacheControl;
      }
    }
    Instant expiresAt = httpDate(expires);
    if (expiresAt == null) {
      return null;
    }
    Instant served = httpDate(date);
    Duration lifetime = Duration.between(served != null ? served : now, expiresAt);
    return lifetime.isNegative() || lifetime.isZero() ? null : lifetime;
  }

  private static Duration seconds(String value) {
    String v = value.replace("\"", "").trim();
    if (v.isEmpty() || v.length() > 12 || !v.chars().allMatch(Character::isDigit)) {
      return null;
    }
    long s = Long.parseLong(v);
    return s == 0 ? null : Duration.ofSeconds(s);
  }

  private static Instant httpDate(String value) {
    if (value == null || value.isBlank() || value.length() > MAX_HEADER_LENGTH) {
      return null;
    }
    try {
      return ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
