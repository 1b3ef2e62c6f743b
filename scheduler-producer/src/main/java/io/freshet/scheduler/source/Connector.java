package io.freshet.scheduler.source;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The kind of source, i.e. which fetch-worker connector reads it. */
public enum Connector {
  FEED,
  ICAL,
  JSON,
  HTML;

  /** The JSON and database spelling: lower case. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses the wire spelling exactly (lower case), as the database's check constraint does. */
  public static Optional<Connector> parse(String text) {
    return Arrays.stream(values()).filter(c -> c.wireName().equals(text)).findFirst();
  }

  /** The allowed spellings, for error messages. */
  public static String allowed() {
    return Arrays.stream(values()).map(Connector::wireName).collect(Collectors.joining(", "));
  }
}
