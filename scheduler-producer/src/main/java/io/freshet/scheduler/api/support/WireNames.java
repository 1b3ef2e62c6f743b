package io.freshet.scheduler.api.support;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The API's one spelling of enums ({@code Connector}, {@code Category}, {@code Tier}, …): the
 * constant's name in lower case. Parsing ignores case and surrounding blanks.
 */
public final class WireNames {

  private WireNames() {}

  public static String of(Enum<?> value) {
    return value.name().toLowerCase(Locale.ROOT);
  }

  public static <E extends Enum<E>> Optional<E> parse(Class<E> type, String text) {
    if (text == null) {
      return Optional.empty();
    }
    String wanted = text.strip();
    return Arrays.stream(type.getEnumConstants())
        .filter(e -> of(e).equalsIgnoreCase(wanted))
        .findFirst();
  }

  /** Every wire name of {@code type}, in declaration order. */
  public static List<String> all(Class<? extends Enum<?>> type) {
    return Arrays.stream(type.getEnumConstants()).map(e -> of((Enum<?>) e)).toList();
  }

  /** The allowed values, for error messages: {@code "feed, ical, json, html"}. */
  public static String allowed(Class<? extends Enum<?>> type) {
    return String.join(", ", all(type));
  }

  /** The noun of an enum in messages: its simple name in lower case ({@code connector}). */
  public static String noun(Class<?> type) {
    return type.getSimpleName().toLowerCase(Locale.ROOT);
  }
}
