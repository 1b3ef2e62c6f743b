package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;

/**
 * Apache Nutch's {@code AdaptiveFetchSchedule} (org.apache.nutch.crawl.AdaptiveFetchSchedule, Nutch
 * 1.x, defaults from conf/nutch-default.xml): on a modified fetch the interval shrinks by {@code
 * dec_rate} = 0.2 and the modified time becomes the fetch time; on an unmodified one it grows by
 * {@code inc_rate} = 0.4. With {@code sync_delta} the interval is at least the time since the last
 * modification, and the next fetch is pulled forward by {@code sync_delta_rate} = 0.3 of that time.
 * Bounds [{@code min_interval} = 60 s, {@code max_interval} = 365 d]; a new page starts at {@code
 * db.fetch.interval.default} = 30 days. "Modified" is a change signature: any new item of a feed,
 * any change of a page.
 */
public final class NutchAdaptivePolicy implements SimPolicy {

  static final double INC_RATE = 0.4;
  static final double DEC_RATE = 0.2;
  static final double MIN_INTERVAL = 60;
  static final double MAX_INTERVAL = 365 * 86400.0;
  static final double SYNC_DELTA_RATE = 0.3;
  static final double DEFAULT_INTERVAL = 30 * 86400.0;

  private final double[] interval;
  private final long[] modifiedTime;

  public NutchAdaptivePolicy(int sources) {
    interval = new double[sources];
    modifiedTime = new long[sources];
    java.util.Arrays.fill(interval, DEFAULT_INTERVAL);
  }

  @Override
  public double onFetch(FetchObservation obs) {
    int s = obs.source();
    long fetchTime = obs.now();
    double i = interval[s];
    long modified = modifiedTime[s];
    if (modified <= 0) {
      modified = fetchTime;
    }
    if (!obs.bootstrap()) {
      if (obs.changed()) {
        i *= 1.0 - DEC_RATE;
        modified = fetchTime;
      } else {
        i *= 1.0 + INC_RATE;
      }
    }
    long delta = fetchTime - modified;
    if (delta > i) {
      i = delta;
    }
    long offset = Math.round(delta * SYNC_DELTA_RATE);
    i = Math.max(MIN_INTERVAL, Math.min(MAX_INTERVAL, i));
    interval[s] = i;
    modifiedTime[s] = modified;
    // next fetch = (fetchTime − offset) + interval
    return i - offset;
  }
}
