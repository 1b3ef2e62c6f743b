package io.freshet.cadence.source;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A source's category: the base cadence of ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md), floor and ceiling per kind
 * of source.
 *
 * <p>Social 12 h, search 24 h and website/institutional 168 h bases, and the 72 h (social) and 360
 * h (website) ceilings come from the earlier system's note that ADR 0010 restates. The others are
 * Freshet's choices:
 *
 * <ul>
 *   <li>{@code rss}: base 1 h, floor 15 min, ceiling 24 h — a feed is cheap to poll with a
 *       conditional GET, and ADR 0011 (docs/adr/0011-feed-frequency-from-the-last-ten-items.md)
 *       bounds feeds to [15 min, 24 h];
 *   <li>{@code calendar}: base 6 h, floor 1 h, ceiling 72 h — events are perishable (ADR 0008
 *       (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md): four syncs a day for
 *       the starter tier);
 *   <li>{@code api}: base 6 h, floor 1 h, ceiling 168 h — APIs have sync cursors, so a fetch is
 *       incremental but rate-limited;
 *   <li>{@code search}: ceiling 168 h, floor 4 h.
 * </ul>
 *
 * <p>The floor of the human-facing categories is that note's proposal of 4 h ("1 h feels aggressive
 * (cost). 4 h as floor?").
 */
public enum Category {
  SOCIAL(Duration.ofHours(12), Duration.ofHours(4), Duration.ofHours(72)),
  SEARCH(Duration.ofHours(24), Duration.ofHours(4), Duration.ofHours(168)),
  WEBSITE(Duration.ofHours(168), Duration.ofHours(4), Duration.ofHours(360)),
  INSTITUTIONAL(Duration.ofHours(168), Duration.ofHours(4), Duration.ofHours(360)),
  RSS(Duration.ofHours(1), Duration.ofMinutes(15), Duration.ofHours(24)),
  CALENDAR(Duration.ofHours(6), Duration.ofHours(1), Duration.ofHours(72)),
  API(Duration.ofHours(6), Duration.ofHours(1), Duration.ofHours(168));

  private final Duration base;
  private final Duration floor;
  private final Duration ceiling;

  Category(Duration base, Duration floor, Duration ceiling) {
    this.base = base;
    this.floor = floor;
    this.ceiling = ceiling;
  }

  /** The cadence a source of this category starts from (and keeps during cold start). */
  public Duration base() {
    return base;
  }

  /** The tightest interval signal-adaptive cadence may reach for this category. */
  public Duration floor() {
    return floor;
  }

  /** The loosest interval signal-adaptive cadence may reach for this category. */
  public Duration ceiling() {
    return ceiling;
  }

  /** The JSON spelling: lower case. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses the JSON spelling, case-insensitively. */
  public static Optional<Category> parse(String text) {
    if (text == null) {
      return Optional.empty();
    }
    for (Category c : values()) {
      if (c.wireName().equalsIgnoreCase(text.trim())) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** The allowed JSON spellings, for error messages. */
  public static String allowed() {
    return Arrays.stream(values()).map(Category::wireName).collect(Collectors.joining(", "));
  }
}
