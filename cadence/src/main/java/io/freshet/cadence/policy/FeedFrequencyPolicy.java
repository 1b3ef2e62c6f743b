package io.freshet.cadence.policy;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code feed_frequency} as ADR 0011 (docs/adr/0011-feed-frequency-from-the-last-ten-items.md)
 * fixes it, exactly: the interval is the mean gap between the publication dates of the feed's
 * <b>last 10 items</b>, clamped to [{@link #MIN} = 15 min, {@link #MAX} = 24 h]. With fewer than 2
 * usable dates it is the configured default interval. It applies after a successful fetch and after
 * a 304 alike.
 *
 * <p>Usable dates: present and not in the future (a date after the evaluation instant is malformed
 * for a published item). The mean gap of n sorted dates is (newest − oldest) / (n − 1). When the
 * snapshot carries no item dates but the stats carry {@code publish_interval_avg} (the same mean,
 * computed by the stats-aggregator), that is used. Failures back off from the interval up to {@link
 * #MAX}.
 */
public final class FeedFrequencyPolicy implements CadencePolicy {

  /** ADR 0011's floor: never more often than every 15 minutes. */
  public static final Duration MIN = Duration.ofMinutes(15);

  /** ADR 0011's ceiling: at least once a day. */
  public static final Duration MAX = Duration.ofHours(24);

  /** How many of the most recent items the mean is taken over. */
  public static final int ITEMS = 10;

  private final Duration defaultInterval;

  public FeedFrequencyPolicy(Duration defaultInterval) {
    this.defaultInterval = defaultInterval;
  }

  /** The adaptive interval before backoff and budget (ADR 0011's rule). */
  public Duration interval(SourceSnapshot source, Instant now) {
    List<Instant> usable = new ArrayList<>();
    for (Instant p : source.recentPublishedAt()) {
      if (p != null && !p.isAfter(now)) {
        usable.add(p);
      }
    }
    Duration mean;
    if (usable.size() >= 2) {
      usable.sort(Collections.reverseOrder());
      List<Instant> last = usable.subList(0, Math.min(ITEMS, usable.size()));
      Duration span = Duration.between(last.getLast(), last.getFirst());
      mean = span.dividedBy(last.size() - 1);
    } else if (usable.isEmpty()
        && source.publishIntervalAvg() != null
        && !source.publishIntervalAvg().isNegative()) {
      mean = source.publishIntervalAvg();
    } else {
      // Fewer than 2 usable dates: ADR 0011's fallback, unclamped (it is configuration).
      return defaultInterval;
    }
    return Durations.clamp(mean, MIN, MAX);
  }

  @Override
  public Instant nextDue(SourceSnapshot source, Instant reference, Instant now, BudgetPlan plan) {
    Duration interval = interval(source, now);
    if (source.consecutiveMisses() > 0) {
      return reference.plus(Backoff.apply(interval, source.consecutiveMisses(), MAX));
    }
    return reference.plus(Durations.times(interval, plan.compression()));
  }

  @Override
  public Demand demand(SourceSnapshot source, Instant now) {
    return new Demand.Fixed(1.0 / Durations.hours(interval(source, now)));
  }
}
