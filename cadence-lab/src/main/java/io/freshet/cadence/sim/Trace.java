package io.freshet.cadence.sim;

import java.util.List;
import java.util.Objects;

/**
 * When each source really changed (or published an item), as read from a trace CSV or made by
 * {@link TraceGenerator}. Columnar and primitive so that the simulator can replay millions of
 * changes quickly; indices are source numbers.
 *
 * @param ids source ids
 * @param times per source, change times in epoch seconds, ascending
 * @param types per source, per change: the signal type's ordinal, or -1; null when the trace has no
 *     signal types
 * @param eventAt per source, per change: the event date in epoch seconds, or {@link #NONE}; null
 *     when the trace has no event dates
 */
public record Trace(List<String> ids, long[][] times, byte[][] types, long[][] eventAt) {

  /** Marks a missing event date. */
  public static final long NONE = Long.MIN_VALUE;

  public Trace {
    ids = List.copyOf(ids);
    Objects.requireNonNull(times, "times");
    if (times.length != ids.size()) {
      throw new IllegalArgumentException("one time array per source");
    }
  }

  public int sources() {
    return ids.size();
  }

  /** Total number of changes. */
  public long changes() {
    long n = 0;
    for (long[] t : times) {
      n += t.length;
    }
    return n;
  }

  /** The earliest change, epoch seconds (0 for an empty trace). */
  public long start() {
    long min = Long.MAX_VALUE;
    for (long[] t : times) {
      if (t.length > 0) {
        min = Math.min(min, t[0]);
      }
    }
    return min == Long.MAX_VALUE ? 0 : min;
  }

  /** The latest change, epoch seconds (0 for an empty trace). */
  public long end() {
    long max = Long.MIN_VALUE;
    for (long[] t : times) {
      if (t.length > 0) {
        max = Math.max(max, t[t.length - 1]);
      }
    }
    return max == Long.MIN_VALUE ? 0 : max;
  }

  /** Index of the first change of source {@code s} strictly after {@code t}. */
  public int firstAfter(int s, long t) {
    long[] a = times[s];
    int lo = 0;
    int hi = a.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (a[mid] <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
