package io.freshet.worker.connector;

import java.time.Duration;
import java.util.Map;

/**
 * The per-source options every connector honours, from the request's {@code config} with the
 * deployment's defaults:
 *
 * <ul>
 *   <li>{@code item_limit}: items kept per fetch, in source order (0 = no limit);
 *   <li>{@code window_days}: items published (or events happening) longer ago are dropped;
 *   <li>{@code window_ahead_days}: events further in the future are dropped, and recurring events
 *       are expanded up to here;
 *   <li>{@code emit}: {@code new} (default) emits only new or changed items, {@code all} every item
 *       read.
 * </ul>
 *
 * @param itemLimit 0 = unlimited
 * @param windowBack null = unlimited
 * @param windowAhead null = unlimited
 */
public record ConnectorOptions(
    int itemLimit, Duration windowBack, Duration windowAhead, boolean emitAll) {

  /** Options without limit or window (the CLI's {@code --all-items}). */
  public ConnectorOptions unlimited() {
    return new ConnectorOptions(0, null, null, emitAll);
  }

  /**
   * @throws IllegalArgumentException naming the option when a value is not a whole number ≥ 0 or
   *     emit is not new/all
   */
  public static ConnectorOptions from(Map<String, String> config, ConnectorOptions defaults) {
    int limit = intOption(config, "item_limit", defaults.itemLimit());
    Duration back = daysOption(config, "window_days", defaults.windowBack());
    Duration ahead = daysOption(config, "window_ahead_days", defaults.windowAhead());
    String emit = config.getOrDefault("emit", defaults.emitAll() ? "all" : "new");
    if (!emit.equals("all") && !emit.equals("new")) {
      throw new IllegalArgumentException("config.emit must be 'new' or 'all', was '" + emit + "'");
    }
    return new ConnectorOptions(limit, back, ahead, emit.equals("all"));
  }

  private static int intOption(Map<String, String> config, String key, int fallback) {
    String value = config.get(key);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    try {
      int parsed = Integer.parseInt(value.trim());
      if (parsed < 0) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "config." + key + " must be a whole number >= 0, was '" + value + "'");
    }
  }

  private static Duration daysOption(Map<String, String> config, String key, Duration fallback) {
    String value = config.get(key);
    if (value == null || value.isBlank()) {
      return fallback;
    }
    int days = intOption(config, key, 0);
    return days == 0 ? null : Duration.ofDays(days);
  }
}
