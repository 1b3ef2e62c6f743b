package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;

/**
 * Miniflux's {@code entry_frequency} scheduler (internal/model/feed.go {@code ScheduleNextCheck},
 * internal/storage {@code WeeklyFeedEntryCount}, defaults from internal/config): with W the feed's
 * "virtual" weekly entry count, the next check is in (7 × 24 × 60) / (W × factor) minutes, clamped
 * to [{@code SCHEDULER_ENTRY_FREQUENCY_MIN_INTERVAL} = 5 min, {@code MAX_INTERVAL} = 1440 min],
 * factor 1; W = 0 gives the maximum.
 *
 * <p>W = ⌈1 week ÷ mean gap⌉ of the stored entries published in the last week, where the mean gap
 * is (newest − oldest) / (count − 1); W = 0 with one entry or none (or all at one instant). As in
 * Miniflux, W is computed <b>before</b> the current fetch's new entries are stored: a fetch that
 * brings the first entries in a week still waits the maximum. Stored entries are those some fetch
 * listed (items pushed out of a feed's list before a fetch were never stored). Pages have no
 * entries: W = 0.
 */
public final class MinifluxEntryFrequencyPolicy implements SimPolicy {

  static final double MIN_MINUTES = 5;
  static final double MAX_MINUTES = 1440;
  static final double FACTOR = 1;
  private static final long WEEK = 7 * 86400L;

  private final double factor;
  private final double maxMinutes;

  /** Per source, the stored entries' publication times of (at least) the last week. */
  private final long[][] stored;

  private final int[] size;

  public MinifluxEntryFrequencyPolicy(int sources) {
    this(sources, FACTOR, MAX_MINUTES);
  }

  /** With its two main knobs, the factor and the maximum interval (minutes), set (for tuning). */
  public MinifluxEntryFrequencyPolicy(int sources, double factor, double maxMinutes) {
    if (!(factor > 0) || !(maxMinutes >= MIN_MINUTES)) {
      throw new IllegalArgumentException("factor > 0 and max ≥ 5 min");
    }
    this.factor = factor;
    this.maxMinutes = maxMinutes;
    stored = new long[sources][];
    size = new int[sources];
  }

  @Override
  public double onFetch(FetchObservation obs) {
    int s = obs.source();
    long now = obs.now();
    long weekly = weeklyCount(s, now);
    store(s, obs, now);
    double minutes;
    if (weekly <= 0) {
      minutes = maxMinutes;
    } else {
      minutes = Math.round(7.0 * 24 * 60 / (weekly * factor));
      minutes = Math.max(MIN_MINUTES, Math.min(maxMinutes, minutes));
    }
    return minutes * 60;
  }

  /** ⌈week ÷ mean gap⌉ over the stored entries published in [now − 1 week, now]; 0 for ≤ 1. */
  static long virtualWeeklyCount(long[] times, int n, long now) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    int count = 0;
    for (int i = 0; i < n; i++) {
      long t = times[i];
      if (t >= now - WEEK && t <= now) {
        count++;
        min = Math.min(min, t);
        max = Math.max(max, t);
      }
    }
    if (count <= 1 || max == min) {
      return 0;
    }
    double meanGap = (double) (max - min) / (count - 1);
    return (long) Math.ceil(WEEK / meanGap);
  }

  private long weeklyCount(int s, long now) {
    long[] times = stored[s];
    if (times == null) {
      return 0;
    }
    // drop entries older than a week: fetch times only grow, so they never count again
    int kept = 0;
    for (int i = 0; i < size[s]; i++) {
      if (times[i] >= now - WEEK) {
        times[kept++] = times[i];
      }
    }
    size[s] = kept;
    return virtualWeeklyCount(times, kept, now);
  }

  private void store(int s, FetchObservation obs, long now) {
    int first = obs.firstNewListed();
    int count = obs.listedCount();
    for (int i = first; i < count; i++) {
      long t = obs.listedTime(i);
      if (t < now - WEEK) {
        continue;
      }
      long[] times = stored[s];
      if (times == null) {
        times = new long[Math.max(4, count - first)];
        stored[s] = times;
      } else if (size[s] == times.length) {
        times = java.util.Arrays.copyOf(times, times.length * 2);
        stored[s] = times;
      }
      times[size[s]++] = t;
    }
  }
}
