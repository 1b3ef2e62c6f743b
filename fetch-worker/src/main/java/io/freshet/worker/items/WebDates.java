package io.freshet.worker.items;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Dates as the web writes them, read the same way by every connector: RFC 822/1123 (2- or 4-digit
 * years, named or numeric zones, with or without weekday and seconds), ISO-8601 anywhere (with or
 * without a colon in the offset, any number of fractional digits, date-only, a space for the {@code
 * T}, the basic form), and the common broken forms ({@code Date.toString()}'s {@code Tue Feb 17
 * 17:36:36 UTC 2026}, a comment after the zone). A date without a zone is UTC.
 *
 * <p>A date before {@link #EARLIEST} or more than {@link #FUTURE_SLACK} after now is not a date
 * (Hugo's {@code 0001-01-01} "no date", a year-9999 placeholder): it is reported as {@link
 * Kind#IMPLAUSIBLE}, never emitted as a bogus instant.
 */
public final class WebDates {

  /** What a text turned out to be. */
  public enum Kind {
    /** A date, read. */
    DATE,
    /** No text, or none that reads as a date. */
    UNREADABLE,
    /** A date, but before {@link #EARLIEST} or too far in the future to be one. */
    IMPLAUSIBLE
  }

  /**
   * A text read.
   *
   * @param kind what it was
   * @param instant the date, when {@code kind} is {@link Kind#DATE} (else null)
   */
  public record Reading(Kind kind, Instant instant) {}

  /** No feed item is dated before this. */
  public static final Instant EARLIEST = Instant.parse("1990-01-01T00:00:00Z");

  /** How far after now a date may be (clocks and time zones differ, events are announced). */
  public static final Duration FUTURE_SLACK = Duration.ofDays(1);

  private static final int MAX_LENGTH = 100;

  private static final Pattern ISO =
      Pattern.compile(
          "(\\d{4})-(\\d{1,2})-(\\d{1,2})"
              + "(?:[Tt ]+(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?)?"
              + "\\s*(Z|z|[A-Za-z]{2,5}|[+-]\\d{2}(?::?\\d{2})?)?");

  private static final Pattern ISO_BASIC =
      Pattern.compile(
          "(\\d{4})(\\d{2})(\\d{2})[Tt](\\d{2})(\\d{2})(\\d{2})?(?:[.,](\\d+))?"
              + "(Z|z|[+-]\\d{2}(?::?\\d{2})?)?");

  // [weekday,] day month year [time [AM|PM] [zone]]; a zone may be an offset after GMT or UTC
  private static final Pattern RFC822 =
      Pattern.compile(
          "(?:[A-Za-z]{2,9}\\.?,?\\s*)?(\\d{1,2})[\\s-]+([A-Za-z]{3,9})\\.?,?[\\s-]+(\\d{2,4})"
              + "(?:[\\sT,]+(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,](\\d+))?)?"
              + "(?:\\s*([AaPp])\\.?[Mm]\\.?)?)?"
              + "\\s*((?:GMT|UTC|UT)?[+-]\\d{2}:?\\d{2}|[A-Za-z]{1,5})?");

  // [weekday] month day[,] [time [zone]] year, or month day, year [time]
  private static final Pattern MONTH_FIRST =
      Pattern.compile(
          "(?:[A-Za-z]{2,9}\\.?,?\\s+)?([A-Za-z]{3,9})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+"
              + "(?:(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s+(?:([A-Za-z]{1,5}|[+-]\\d{2}:?\\d{2})\\s+)?"
              + "(\\d{4})|(\\d{4})(?:[\\s,]+(\\d{1,2}):(\\d{2})(?::(\\d{2}))?\\s*"
              + "([A-Za-z]{1,5}|[+-]\\d{2}:?\\d{2})?)?)");

  private static final Pattern COMMENT = Pattern.compile("\\s*\\([^)]*\\)\\s*$");

  private static final Map<String, Integer> MONTHS =
      Map.ofEntries(
          Map.entry("jan", 1),
          Map.entry("feb", 2),
          Map.entry("mar", 3),
          Map.entry("apr", 4),
          Map.entry("may", 5),
          Map.entry("jun", 6),
          Map.entry("jul", 7),
          Map.entry("aug", 8),
          Map.entry("sep", 9),
          Map.entry("oct", 10),
          Map.entry("nov", 11),
          Map.entry("dec", 12));

  // RFC 822's zones and the few others feeds use; an unknown name is read as UTC, as RFC 2822
  // says of military zones
  private static final Map<String, Integer> ZONES =
      Map.ofEntries(
          Map.entry("UT", 0),
          Map.entry("UTC", 0),
          Map.entry("GMT", 0),
          Map.entry("Z", 0),
          Map.entry("WET", 0),
          Map.entry("EST", -5 * 60),
          Map.entry("EDT", -4 * 60),
          Map.entry("CST", -6 * 60),
          Map.entry("CDT", -5 * 60),
          Map.entry("MST", -7 * 60),
          Map.entry("MDT", -6 * 60),
          Map.entry("PST", -8 * 60),
          Map.entry("PDT", -7 * 60),
          Map.entry("AKST", -9 * 60),
          Map.entry("AKDT", -8 * 60),
          Map.entry("HST", -10 * 60),
          Map.entry("BST", 60),
          Map.entry("CET", 60),
          Map.entry("CEST", 2 * 60),
          Map.entry("MET", 60),
          Map.entry("MEST", 2 * 60),
          Map.entry("EET", 2 * 60),
          Map.entry("EEST", 3 * 60),
          Map.entry("MSK", 3 * 60),
          Map.entry("JST", 9 * 60),
          Map.entry("KST", 9 * 60),
          Map.entry("AEST", 10 * 60),
          Map.entry("AEDT", 11 * 60),
          Map.entry("NZST", 12 * 60),
          Map.entry("NZDT", 13 * 60));

  private WebDates() {}

  /** The date {@code text} holds, or null when it holds none (unreadable or implausible). */
  public static Instant parse(String text, Instant now) {
    return read(text, now).instant();
  }

  /** What {@code text} is: a date, none, or a placeholder that is no date. */
  public static Reading read(String text, Instant now) {
    Instant instant = instant(text);
    if (instant == null) {
      return new Reading(Kind.UNREADABLE, null);
    }
    return plausible(instant, now)
        ? new Reading(Kind.DATE, instant)
        : new Reading(Kind.IMPLAUSIBLE, null);
  }

  /**
   * The items with every date that cannot be one set to null: a publication date must be {@link
   * #plausible}; an event time may be far in the future (events are announced), but not before
   * {@link #EARLIEST}. Whatever parser read them (Rome reads Hugo's {@code 0001-01-01} as year 0).
   */
  public static List<RawItem> plausibleDates(List<RawItem> items, Instant now) {
    List<RawItem> out = new ArrayList<>(items.size());
    for (RawItem i : items) {
      boolean published = i.publishedAt() != null && !plausible(i.publishedAt(), now);
      boolean event = i.eventAt() != null && i.eventAt().isBefore(EARLIEST);
      out.add(
          published || event
              ? new RawItem(
                  i.sourceId(),
                  i.url(),
                  i.title(),
                  i.body(),
                  i.contentType(),
                  published ? null : i.publishedAt(),
                  event ? null : i.eventAt(),
                  i.structuredEvent(),
                  i.metadata())
              : i);
    }
    return out;
  }

  /** Whether {@code instant} can be a feed item's date at {@code now}. */
  public static boolean plausible(Instant instant, Instant now) {
    return !instant.isBefore(EARLIEST) && !instant.isAfter(now.plus(FUTURE_SLACK));
  }

  /**
   * The instant written in {@code text}, whatever its plausibility (an event's start may be far
   * ahead), or null.
   */
  public static Instant instant(String text) {
    if (text == null) {
      return null;
    }
    String t = text.strip();
    if (t.isEmpty() || t.length() > MAX_LENGTH) {
      return null;
    }
    t = COMMENT.matcher(t).replaceFirst(""); // "+0000 (UTC)"
    try {
      Matcher m = ISO.matcher(t);
      if (m.matches()) {
        return at(
            num(m.group(1)),
            num(m.group(2)),
            num(m.group(3)),
            opt(m.group(4)),
            opt(m.group(5)),
            opt(m.group(6)),
            m.group(7),
            m.group(8));
      }
      m = ISO_BASIC.matcher(t);
      if (m.matches()) {
        return at(
            num(m.group(1)),
            num(m.group(2)),
            num(m.group(3)),
            num(m.group(4)),
            num(m.group(5)),
            opt(m.group(6)),
            m.group(7),
            m.group(8));
      }
      m = RFC822.matcher(t);
      if (m.matches()) {
        Integer month = month(m.group(2));
        return month == null
            ? null
            : at(
                year(m.group(3)),
                month,
                num(m.group(1)),
                hour12(opt(m.group(4)), m.group(8)),
                opt(m.group(5)),
                opt(m.group(6)),
                m.group(7),
                m.group(9));
      }
      m = MONTH_FIRST.matcher(t);
      if (m.matches()) {
        Integer month = month(m.group(1));
        if (month == null) {
          return null;
        }
        if (m.group(7) != null) { // Tue Feb 17 17:36:36 UTC 2026
          return at(
              num(m.group(7)),
              month,
              num(m.group(2)),
              opt(m.group(3)),
              opt(m.group(4)),
              opt(m.group(5)),
              null,
              m.group(6));
        }
        return at( // February 17, 2026 5:36 PM is not read; February 17, 2026 17:36 is
            num(m.group(8)),
            month,
            num(m.group(2)),
            opt(m.group(9)),
            opt(m.group(10)),
            opt(m.group(11)),
            null,
            m.group(12));
      }
    } catch (DateTimeException | ArithmeticException e) {
      return null; // February 30th, hour 25, an offset of +99:00
    }
    return null;
  }

  private static Instant at(
      int year,
      int month,
      int day,
      int hour,
      int minute,
      int second,
      String fraction,
      String zone) {
    int nanos = 0;
    if (fraction != null) {
      String digits = (fraction + "000000000").substring(0, 9);
      nanos = Integer.parseInt(digits);
    }
    LocalDateTime local;
    if (hour == 24 && minute == 0 && second == 0) {
      local = LocalDate.of(year, month, day).plusDays(1).atStartOfDay();
    } else {
      local = LocalDateTime.of(year, month, day, hour, minute, Math.min(second, 59), nanos);
    }
    return local.toInstant(offset(zone));
  }

  /** The hour on a 24-hour clock: 12 AM is 0, 1 PM is 13 (an hour past 12 stays as written). */
  private static int hour12(int hour, String meridiem) {
    if (meridiem == null || hour > 12) {
      return hour;
    }
    boolean pm = meridiem.equalsIgnoreCase("p");
    return hour == 12 ? (pm ? 12 : 0) : (pm ? hour + 12 : hour);
  }

  private static ZoneOffset offset(String zone) {
    if (zone == null) {
      return ZoneOffset.UTC;
    }
    int signAt = Math.max(zone.indexOf('+'), zone.indexOf('-'));
    if (signAt > 0) {
      zone = zone.substring(signAt); // GMT+0100
    }
    char sign = zone.charAt(0);
    if (sign == '+' || sign == '-') {
      String digits = zone.substring(1).replace(":", "");
      int hours = Integer.parseInt(digits.substring(0, 2));
      int minutes = digits.length() >= 4 ? Integer.parseInt(digits.substring(2, 4)) : 0;
      int total = hours * 60 + minutes;
      return ZoneOffset.ofTotalSeconds((sign == '-' ? -total : total) * 60);
    }
    Integer minutes = ZONES.get(zone.toUpperCase(Locale.ROOT));
    return ZoneOffset.ofTotalSeconds(minutes == null ? 0 : minutes * 60);
  }

  private static Integer month(String name) {
    if (name.length() < 3) {
      return null;
    }
    String key = name.substring(0, 3).toLowerCase(Locale.ROOT);
    Integer month = MONTHS.get(key);
    // a full name must be the month's ("Febtember" is not February); "Sept" is common
    if (month != null && name.length() > 3) {
      String full = java.time.Month.of(month).name().toLowerCase(Locale.ROOT); // "february"
      String lower = name.toLowerCase(Locale.ROOT);
      if (!full.startsWith(lower) && !lower.equals("sept")) {
        return null;
      }
    }
    return month;
  }

  private static int year(String digits) {
    int y = Integer.parseInt(digits);
    if (digits.length() == 2) {
      return y < 50 ? 2000 + y : 1900 + y; // RFC 2822
    }
    if (digits.length() == 3) {
      return y + 1900; // Date.getYear() written out
    }
    return y;
  }

  private static int num(String digits) {
    return Integer.parseInt(digits);
  }

  private static int opt(String digits) {
    return digits == null ? 0 : Integer.parseInt(digits);
  }
}
