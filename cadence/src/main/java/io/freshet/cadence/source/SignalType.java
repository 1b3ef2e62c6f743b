package io.freshet.cadence.source;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What an item tells its readers; ordered by urgency as ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md) ranks them.
 */
public enum SignalType {
  EVENT,
  ASK,
  GIVE,
  INFORMATIVE;

  /** The wire spelling: lower case. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses the wire spelling, case-insensitively. */
  public static Optional<SignalType> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    for (SignalType t : values()) {
      if (t.wireName().equalsIgnoreCase(text.trim())) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** The allowed spellings, for error messages. */
  public static String allowed() {
    return Arrays.stream(values()).map(SignalType::wireName).collect(Collectors.joining(", "));
  }
}
