package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;
import java.util.Arrays;

/**
 * Miniflux's {@code entry_frequency} scheduler (internal/model/feed.go {@code ScheduleNextCheck},
 * defaults from internal/config): with W the number of the feed's entries published in the last
 * week, the next check is in (7 × 24 × 60) / (W × factor) minutes, clamped to [{@code
 * SCHEDULER_ENTRY_FREQUENCY_MIN_INTERVAL} = 5 min, {@code MAX_INTERVAL} = 1440 min], factor 1; W =
 * 0 gives the maximum.
 *
 * <p>W counts the entries Miniflux stored, i.e. those some fetch listed (items pushed out of a
 * feed's list before a fetch were never stored). They are kept here in hourly bins of publication
 * time over the last week, so the week's edge is exact to the hour. Pages have no entries: W = 0.
 */
public final class MinifluxEntryFrequencyPolicy implements SimPolicy {

  static final double MIN_MINUTES = 5;
  static final double MAX_MINUTES = 1440;
  static final int FACTOR = 1;
  private static final int BINS = 7 * 24 + 1;

  private final int[][] counts;
  private final long[][] hours;

  public MinifluxEntryFrequencyPolicy(int sources) {
    counts = new int[sources][BINS];
    hours = new long[sources][BINS];
    for (long[] h : hours) {
      Arrays.fill(h, Long.MIN_VALUE);
    }
  }

  @Override
  public double onFetch(FetchObservation obs) {
    int s = obs.source();
    for (int i = obs.firstNewListed(); i < obs.listedCount(); i++) {
      long hour = Math.floorDiv(obs.listedTime(i), 3600L);
      int slot = (int) Math.floorMod(hour, (long) BINS);
      if (hours[s][slot] != hour) {
        hours[s][slot] = hour;
        counts[s][slot] = 0;
      }
      counts[s][slot]++;
    }
    long nowHour = Math.floorDiv(obs.now(), 3600L);
    long weekly = 0;
    for (int slot = 0; slot < BINS; slot++) {
      long h = hours[s][slot];
      if (h > nowHour - BINS && h <= nowHour) {
        weekly += counts[s][slot];
      }
    }
    double minutes;
    if (weekly <= 0) {
      minutes = MAX_MINUTES;
    } else {
      minutes = Math.round(7.0 * 24 * 60 / (weekly * FACTOR));
      minutes = Math.max(MIN_MINUTES, Math.min(MAX_MINUTES, minutes));
    }
    return minutes * 60;
  }
}
