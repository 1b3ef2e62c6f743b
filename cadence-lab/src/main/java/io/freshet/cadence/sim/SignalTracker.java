package io.freshet.cadence.sim;

import io.freshet.cadence.source.SignalType;
import java.util.Arrays;

/**
 * The simulator's stand-in for the stats-aggregator's rolling window of one source: new items per
 * fetch over the last {@value #FETCHES} fetches, signal types of the last {@value #ITEMS} items
 * seen, days from fetch to event of the last {@value #EVENTS} dated items seen. Fed only by what
 * fetches observed.
 */
public final class SignalTracker {

  static final int FETCHES = 20;
  static final int ITEMS = 50;
  static final int EVENTS = 20;

  private final int[] yields = new int[FETCHES];
  private int fetches;
  private final byte[] types = new byte[ITEMS];
  private int items;
  private final double[] daysToEvent = new double[EVENTS];
  private int events;
  private final double[] scratch = new double[EVENTS];

  /** Records one fetch: its new items (listed ones carry types and event dates in feeds). */
  public void observe(FetchObservation obs) {
    int newItems = obs.mode() == ObserveMode.FEED ? obs.visibleNew() : (obs.changed() ? 1 : 0);
    yields[fetches % FETCHES] = newItems;
    fetches++;
    for (int i = obs.firstNewListed(); i < obs.listedCount(); i++) {
      int type = obs.listedType(i);
      if (type >= 0) {
        types[items % ITEMS] = (byte) type;
        items++;
      }
      long event = obs.listedEventAt(i);
      if (event != Trace.NONE) {
        daysToEvent[events % EVENTS] = (event - obs.now()) / 86400.0;
        events++;
      }
    }
  }

  /** Fetches in the window (saturates at the window size). */
  public int windowFetches() {
    return Math.min(fetches, FETCHES);
  }

  /** Mean new items per fetch over the window, or null before any fetch. */
  public Double avgYield() {
    int n = windowFetches();
    if (n == 0) {
      return null;
    }
    int sum = 0;
    for (int i = 0; i < n; i++) {
      sum += yields[i];
    }
    return (double) sum / n;
  }

  /** The most frequent signal type among recent items, or null. */
  public SignalType dominantType() {
    int n = Math.min(items, ITEMS);
    if (n == 0) {
      return null;
    }
    int[] counts = new int[SignalType.values().length];
    for (int i = 0; i < n; i++) {
      counts[types[i]]++;
    }
    int best = 0;
    for (int t = 1; t < counts.length; t++) {
      if (counts[t] > counts[best]) {
        best = t;
      }
    }
    return SignalType.values()[best];
  }

  /** Median days from fetch to event over recent dated items, or null without dates. */
  public Double medianDaysToEvent() {
    int n = Math.min(events, EVENTS);
    if (n == 0) {
      return null;
    }
    System.arraycopy(daysToEvent, 0, scratch, 0, n);
    Arrays.sort(scratch, 0, n);
    return n % 2 == 1 ? scratch[n / 2] : 0.5 * (scratch[n / 2 - 1] + scratch[n / 2]);
  }
}
