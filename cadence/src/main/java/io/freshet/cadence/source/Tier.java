package io.freshet.cadence.source;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A tenant's tier and the minimum interval it buys (ADR 0008
 * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md): free twice a day, starter
 * four times a day, pro hourly). No cadence mode, budget or manual override of the schedule goes
 * below it.
 */
public enum Tier {
  FREE(Duration.ofHours(12)),
  STARTER(Duration.ofHours(6)),
  PRO(Duration.ofHours(1));

  private final Duration minimumInterval;

  Tier(Duration minimumInterval) {
    this.minimumInterval = minimumInterval;
  }

  /** The shortest interval between two scheduled fetches of one source of this tier. */
  public Duration minimumInterval() {
    return minimumInterval;
  }

  /** The wire spelling: lower case. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses the wire spelling, case-insensitively. */
  public static Optional<Tier> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    for (Tier t : values()) {
      if (t.wireName().equalsIgnoreCase(text.trim())) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  /** The allowed spellings, for error messages. */
  public static String allowed() {
    return Arrays.stream(values()).map(Tier::wireName).collect(Collectors.joining(", "));
  }
}
