package io.freshet.cadence.config;

import io.freshet.cadence.budget.Objective;
import io.freshet.cadence.source.Category;
import java.time.Duration;
import java.util.Objects;

/**
 * Deployment-wide cadence defaults: the mode of a source without {@code config_json.cadence}, and
 * the values a mode's omitted keys take.
 *
 * @param defaultSpec the cadence of a source with none; Freshet's default is {@code adaptive}. Set
 *     it to {@code always} to keep the "no cadence = always due" rule of the earlier system that
 *     ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md) restates.
 * @param defaultCategory the category of a source that has none (cold start, signal_adaptive)
 * @param feedDefaultInterval {@code feed_frequency}'s fallback when {@code default_minutes} is
 *     omitted (60 min)
 * @param coldStartFetches {@code signal_adaptive}'s cold start length (3 fetches)
 * @param maxBackoff the longest a failure backoff grows for modes without a ceiling (24 h)
 */
public record CadenceDefaults(
    CadenceSpec defaultSpec,
    Category defaultCategory,
    Duration feedDefaultInterval,
    int coldStartFetches,
    Duration maxBackoff) {

  /** Adaptive min 5 min: below it a source's host politeness delay is the real limit. */
  public static final Duration ADAPTIVE_MIN = Duration.ofMinutes(5);

  /** Adaptive max 7 days: a source that went silent is still noticed when it wakes up. */
  public static final Duration ADAPTIVE_MAX = Duration.ofDays(7);

  /** Adaptive reference 60 min: a weight-1 source changing hourly is fetched hourly. */
  public static final Duration ADAPTIVE_REFERENCE = Duration.ofMinutes(60);

  /** Adaptive evidence window 14 days: two weekly rhythms, short enough to follow a dormancy. */
  public static final Duration ADAPTIVE_WINDOW = Duration.ofDays(14);

  public CadenceDefaults {
    Objects.requireNonNull(defaultSpec, "defaultSpec");
    Objects.requireNonNull(defaultCategory, "defaultCategory");
    Objects.requireNonNull(feedDefaultInterval, "feedDefaultInterval");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
  }

  /** Freshet's shipped defaults. */
  public static CadenceDefaults standard() {
    return new CadenceDefaults(
        adaptive(null), Category.RSS, Duration.ofMinutes(60), 3, Duration.ofHours(24));
  }

  /** An {@code adaptive} spec with every key at its default. */
  public static CadenceSpec.Adaptive adaptive(Category category) {
    return new CadenceSpec.Adaptive(
        category,
        ADAPTIVE_MIN,
        ADAPTIVE_MAX,
        ADAPTIVE_REFERENCE,
        ADAPTIVE_WINDOW,
        Objective.DELAY,
        true);
  }

  /** These defaults with another default spec. */
  public CadenceDefaults withDefaultSpec(CadenceSpec spec) {
    return new CadenceDefaults(
        spec, defaultCategory, feedDefaultInterval, coldStartFetches, maxBackoff);
  }
}
