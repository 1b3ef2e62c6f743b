package io.freshet.cadence.config;

import io.freshet.cadence.budget.Objective;
import io.freshet.cadence.source.Category;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;

/**
 * A validated {@code config_json.cadence}: which mode, with which settings. Built by {@link
 * CadenceConfigParser}; every instance is valid by construction.
 */
public sealed interface CadenceSpec {

  /** The mode ({@link Mode#jsonName()} is the JSON {@code mode} value). */
  Mode mode();

  /** ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md): due at every run. */
  record Always() implements CadenceSpec {
    @Override
    public Mode mode() {
      return Mode.ALWAYS;
    }
  }

  /** ADR 0006: due if never fetched or {@code now - last_fetch_at >= every}. */
  record Interval(Duration every) implements CadenceSpec {
    public Interval {
      requirePositive(every, "every");
    }

    @Override
    public Mode mode() {
      return Mode.INTERVAL;
    }
  }

  /** Due at the first fire time of {@code expression} in {@code zone} after the last fetch. */
  record Cron(String expression, ZoneId zone, CronFlavor flavor) implements CadenceSpec {
    public Cron {
      Objects.requireNonNull(expression, "expression");
      Objects.requireNonNull(zone, "zone");
      Objects.requireNonNull(flavor, "flavor");
    }

    @Override
    public Mode mode() {
      return Mode.CRON;
    }
  }

  /**
   * ADR 0011 (docs/adr/0011-feed-frequency-from-the-last-ten-items.md): mean gap of the last 10
   * items' publication dates, clamped to [15 min, 24 h]; {@code defaultInterval} when fewer than 2
   * usable dates.
   */
  record FeedFrequency(Duration defaultInterval) implements CadenceSpec {
    public FeedFrequency {
      requirePositive(defaultInterval, "defaultInterval");
    }

    @Override
    public Mode mode() {
      return Mode.FEED_FREQUENCY;
    }
  }

  /**
   * ADR 0010 (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md): base(category) ×
   * yield × type × urgency × backoff, clamped to [floor, category ceiling].
   *
   * @param category overrides the source's own category; null to use the source's
   * @param floor overrides the category floor; null to use the category's
   * @param coldStartFetches the category base applies until this many fetches are in the window
   */
  record SignalAdaptive(Category category, Duration floor, int coldStartFetches)
      implements CadenceSpec {
    public SignalAdaptive {
      if (floor != null) {
        requirePositive(floor, "floor");
      }
      if (coldStartFetches < 0) {
        throw new IllegalArgumentException("coldStartFetches must not be negative");
      }
    }

    @Override
    public Mode mode() {
      return Mode.SIGNAL_ADAPTIVE;
    }
  }

  /**
   * Freshet's own: estimated change rate, importance weight and a budget-optimal interval.
   *
   * @param category overrides the source's category for the cold-start base; null to use the
   *     source's
   * @param min the tightest interval
   * @param max the loosest interval: even a silent source is checked this often
   * @param reference without a global budget, a source of weight 1 changing once an hour is fetched
   *     every {@code reference}; every other interval follows from the objective
   * @param window how long evidence counts: older evidence fades with this time constant
   * @param objective what the allocation minimises
   * @param importance whether signal type, urgency and yield weight the allocation
   */
  record Adaptive(
      Category category,
      Duration min,
      Duration max,
      Duration reference,
      Duration window,
      Objective objective,
      boolean importance)
      implements CadenceSpec {
    public Adaptive {
      requirePositive(min, "min");
      requirePositive(max, "max");
      requirePositive(reference, "reference");
      requirePositive(window, "window");
      Objects.requireNonNull(objective, "objective");
      if (max.compareTo(min) < 0) {
        throw new IllegalArgumentException("max must not be below min");
      }
    }

    @Override
    public Mode mode() {
      return Mode.ADAPTIVE;
    }
  }

  private static void requirePositive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive");
    }
  }
}
