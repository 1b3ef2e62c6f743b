package io.freshet.cadence.config;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The cadence modes, each with its JSON name ({@code config_json.cadence.mode}) and the keys it
 * accepts besides {@code mode}. The one list of modes: the parser, the specs and the docs' error
 * messages all read it.
 */
public enum Mode {
  ALWAYS(Set.of()),
  INTERVAL(Set.of("every_minutes")),
  CRON(Set.of("expression", "zone", "flavor")),
  FEED_FREQUENCY(Set.of("default_minutes")),
  SIGNAL_ADAPTIVE(Set.of("category", "floor_minutes", "cold_start_fetches")),
  ADAPTIVE(
      Set.of(
          "category",
          "min_minutes",
          "max_minutes",
          "reference_minutes",
          "window_days",
          "objective",
          "importance"));

  private final Set<String> keys;

  Mode(Set<String> keys) {
    this.keys = keys;
  }

  /** The JSON name, e.g. {@code feed_frequency}. */
  public String jsonName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The keys this mode accepts besides {@code mode}. */
  public Set<String> keys() {
    return keys;
  }

  /** The mode whose JSON name is {@code name} (exact, lower case), if any. */
  public static Optional<Mode> ofJsonName(String name) {
    return Arrays.stream(values()).filter(m -> m.jsonName().equals(name)).findFirst();
  }

  /** The JSON names in the order documentation lists them. */
  public static List<String> jsonNames() {
    return Arrays.stream(values()).map(Mode::jsonName).toList();
  }
}
