package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;

/**
 * Apache StormCrawler's {@code AdaptiveScheduler} (org.apache.stormcrawler.persistence.
 * AdaptiveScheduler, defaults from its Javadoc and fields): the first fetch has no previous
 * signature, so the {@code DefaultScheduler}'s {@code fetchInterval.default} = 1440 min applies;
 * afterwards a changed signature shrinks the interval towards the minimum, interval = (1 − decr) ×
 * interval + decr × min with {@code rate.decr} = 0.5, and an unchanged one (or a 304) grows it by
 * {@code rate.incr} = 0.5 up to the maximum; bounds {@code fetchInterval.min} = 60 min and {@code
 * fetchInterval.max} = 20160 min (14 days). Integer minutes, as there.
 */
public final class StormCrawlerAdaptivePolicy implements SimPolicy {

  static final int DEFAULT_MINUTES = 1440;
  static final int MIN_MINUTES = 60;
  static final int MAX_MINUTES = 20160;
  static final float INC_RATE = 0.5f;
  static final float DEC_RATE = 0.5f;

  private final int[] minutes;
  private final int minMinutes;
  private final int maxMinutes;
  private final float incRate;
  private final float decRate;

  public StormCrawlerAdaptivePolicy(int sources) {
    this(sources, MIN_MINUTES, MAX_MINUTES, INC_RATE, DEC_RATE);
  }

  /** With its main knobs — min / max interval (minutes), incr / decr rates — set (for tuning). */
  public StormCrawlerAdaptivePolicy(
      int sources, int minMinutes, int maxMinutes, float incRate, float decRate) {
    if (minMinutes < 1 || maxMinutes < minMinutes || !(incRate >= 0) || !(decRate >= 0)) {
      throw new IllegalArgumentException("1 ≤ min ≤ max, rates ≥ 0");
    }
    this.minMinutes = minMinutes;
    this.maxMinutes = maxMinutes;
    this.incRate = incRate;
    this.decRate = decRate;
    minutes = new int[sources];
    java.util.Arrays.fill(minutes, DEFAULT_MINUTES);
  }

  @Override
  public double onFetch(FetchObservation obs) {
    int s = obs.source();
    int interval = minutes[s];
    if (!obs.bootstrap()) {
      if (obs.changed()) {
        interval = (int) ((1.0f - decRate) * interval + decRate * minMinutes);
      } else {
        interval = (int) (interval * (1.0f + incRate));
        if (interval > maxMinutes) {
          interval = maxMinutes;
        }
      }
    }
    minutes[s] = interval;
    return interval * 60.0;
  }
}
