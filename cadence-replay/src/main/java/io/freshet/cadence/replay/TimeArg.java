package io.freshet.cadence.replay;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A bound of the replayed window as given on the command line: a recorded (wall-clock) instant, or
 * a span back from the end of the recording ({@code 10m} = the last 10 minutes of it).
 *
 * @param at the instant, or null
 * @param beforeEnd the span before the newest recorded fetch, or null
 */
record TimeArg(Instant at, Duration beforeEnd) {

  private static final Pattern SPAN = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(s|m|min|h|d)");

  /** This bound on the recorded timeline, given the newest record's time. */
  Instant resolve(Instant end) {
    return at != null ? at : end.minus(beforeEnd);
  }

  boolean relative() {
    return at == null;
  }

  @Override
  public String toString() {
    return at != null ? at.toString() : "end of recording - " + beforeEnd;
  }

  /** Parses {@code 2026-11-01T00:00:00Z}, {@code 2026-11-01T01:00:00+01:00}, {@code 90s}, ... */
  static TimeArg parse(String text) {
    String t = text.trim();
    Matcher m = SPAN.matcher(t.toLowerCase(Locale.ROOT));
    if (m.matches()) {
      double n = Double.parseDouble(m.group(1));
      long unitSeconds =
          switch (m.group(2)) {
            case "s" -> 1;
            case "m", "min" -> 60;
            case "h" -> 3_600;
            default -> 86_400;
          };
      long millis = Math.round(n * unitSeconds * 1000);
      if (millis <= 0) {
        throw new TypeConversionException("'" + text + "': a span must be positive");
      }
      return new TimeArg(null, Duration.ofMillis(millis));
    }
    try {
      return new TimeArg(Instant.parse(t), null);
    } catch (DateTimeParseException e) {
      // try the other forms
    }
    try {
      return new TimeArg(OffsetDateTime.parse(t).toInstant(), null);
    } catch (DateTimeParseException e) {
      // and the last one
    }
    try {
      Duration d = Duration.parse(t);
      if (!d.isNegative() && !d.isZero()) {
        return new TimeArg(null, d);
      }
    } catch (DateTimeParseException e) {
      // reported below
    }
    throw new TypeConversionException(
        "'"
            + text
            + "' is neither an ISO-8601 instant (2026-11-01T00:00:00Z) nor a span back from the"
            + " end of the recording (90s, 10m, 2h, 3d)");
  }

  /** picocli's converter for {@code --from} and {@code --to}. */
  static final class Converter implements ITypeConverter<TimeArg> {
    @Override
    public TimeArg convert(String value) {
      return parse(value);
    }
  }
}
