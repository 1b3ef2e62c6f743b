package io.freshet.stack.bench;

import io.freshet.stack.demoweb.Catalog;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.TraceTimes;
import java.util.ArrayList;
import java.util.List;

/**
 * A demo catalog of the bundled one's shape (the same mix of RSS, Atom, JSON Feed, calendars, APIs
 * and pages, built by {@link Catalog#build}) whose every source publishes one item (a page: a new
 * version) every {@code step} trace seconds, each source at its own offset within the step, from a
 * full window before the origin to {@code horizon} after it. The bundled traces are far too sparse
 * (about one change per source per month) for fetches that carry several new items each.
 */
final class BusyCatalog {

  static final int FEED_TRACES = 115; // as the bundled traces: 575 item sources, 921 pages
  static final int PAGE_TRACES = 921;

  private BusyCatalog() {}

  /**
   * @param step trace seconds between two publications of one source (≥ 1)
   * @param horizon trace seconds after the origin that publications cover
   */
  static Catalog build(DemoWebSettings settings, long step, long horizon) {
    long start = settings.traceStart().getEpochSecond() - (long) settings.window() * step;
    int n = (int) ((horizon + (long) settings.window() * step) / step) + 1;
    return Catalog.build(
        traces("feed-", FEED_TRACES, start, step, n, 0),
        traces("page-", PAGE_TRACES, start, step, n, FEED_TRACES),
        settings);
  }

  private static TraceTimes traces(String prefix, int count, long start, long step, int n, int k0) {
    List<String> ids = new ArrayList<>();
    long[][] times = new long[count][];
    for (int j = 0; j < count; j++) {
      ids.add(String.format("%s%04d", prefix, j + 1));
      long offset = ((long) (j + k0) * 7919) % step; // spread over the step
      long[] t = new long[n];
      for (int i = 0; i < n; i++) {
        t[i] = start + offset + i * step;
      }
      times[j] = t;
    }
    return new TraceTimes(ids, times);
  }
}
