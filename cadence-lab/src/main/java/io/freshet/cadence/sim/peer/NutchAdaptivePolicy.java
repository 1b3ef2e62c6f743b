package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;
import java.util.Arrays;

/**
 * Apache Nutch's {@code AdaptiveFetchSchedule} (org.apache.nutch.crawl.AdaptiveFetchSchedule, Nutch
 * 1.x, defaults from conf/nutch-default.xml): on a modified fetch the interval shrinks by {@code
 * dec_rate} = 0.2 and the modified time becomes the fetch time; on an unmodified one it grows by
 * {@code inc_rate} = 0.4. With {@code sync_delta} the interval is at least the time since the last
 * modification (delta), and the next fetch is pulled forward by {@code sync_delta_rate} = 0.3 of
 * delta. Bounds [{@code min_interval} = 60 s, 90 d]: the adaptive schedule's own maximum is 365 d,
 * but {@code db.fetch.interval.max} = 90 d caps every interval Nutch actually waits (the generator
 * re-fetches a page whose next fetch lies further ahead). A new page starts at {@code
 * db.fetch.interval.default} = 30 days. "Modified" is a change signature: any new item of a feed,
 * any change of a page.
 *
 * <p><b>Under equal-cost scaling</b> the simulator multiplies the returned gap by a factor {@code
 * k}. The interval kept here is in unscaled units (the real interval is {@code k} × it), so the
 * sync-delta rule compares the real delta with the <em>real</em> interval ({@code delta / k >
 * interval}), and the pull-forward offset, a real time, is returned divided by {@code k} so that it
 * stays 0.3 × delta after scaling. <b>Offset drop</b>: when the offset would put the next fetch at
 * or before this one (offset ≥ interval, possible once the interval is capped), it is dropped and
 * the next fetch is one interval ahead, as a schedule never lies in the past.
 */
public final class NutchAdaptivePolicy implements SimPolicy {

  static final double INC_RATE = 0.4;
  static final double DEC_RATE = 0.2;
  static final double MIN_INTERVAL = 60;

  /** {@code db.fetch.interval.max}: 90 days. */
  static final double MAX_INTERVAL = 90 * 86400.0;

  static final double SYNC_DELTA_RATE = 0.3;
  static final double DEFAULT_INTERVAL = 30 * 86400.0;

  private final double inc;
  private final double dec;
  private final double[] interval;
  private final long[] modifiedTime;
  private double scale = 1.0;

  public NutchAdaptivePolicy(int sources) {
    this(sources, INC_RATE, DEC_RATE);
  }

  /** With its two main knobs, {@code inc_rate} and {@code dec_rate}, set (for tuning). */
  public NutchAdaptivePolicy(int sources, double incRate, double decRate) {
    if (!(incRate >= 0) || !(decRate >= 0 && decRate < 1)) {
      throw new IllegalArgumentException("inc ≥ 0 and 0 ≤ dec < 1");
    }
    inc = incRate;
    dec = decRate;
    interval = new double[sources];
    modifiedTime = new long[sources];
    Arrays.fill(interval, DEFAULT_INTERVAL);
  }

  @Override
  public void scaledBy(double scale) {
    if (!(scale > 0)) {
      throw new IllegalArgumentException("scale must be positive");
    }
    this.scale = scale;
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
        i *= 1.0 - dec;
        modified = fetchTime;
      } else {
        i *= 1.0 + inc;
      }
    }
    // real seconds since the last modification, in the interval's (unscaled) units
    double delta = (fetchTime - modified) / scale;
    if (delta > i) {
      i = delta;
    }
    double offset = delta * SYNC_DELTA_RATE;
    i = Math.max(MIN_INTERVAL, Math.min(MAX_INTERVAL, i));
    interval[s] = i;
    modifiedTime[s] = modified;
    if (offset >= i) {
      offset = 0; // offset drop: never schedule at or before this fetch
    }
    // next fetch = (fetchTime − offset) + interval, in units the simulator scales by k
    return i - offset;
  }
}
