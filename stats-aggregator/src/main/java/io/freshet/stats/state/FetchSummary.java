package io.freshet.stats.state;

import java.util.Arrays;

/**
 * What one fetch that read its source (ok, partial or not modified) contributed to the window.
 *
 * @param finishedAt when the fetch ended, epoch milliseconds
 * @param newItems items counted as new (marked added or changed, content hash not counted before)
 * @param typeCounts new items per signal type, indexed by {@link SignalTypes} order
 * @param daysToEvent for new items announcing an event after the fetch: (event − fetch) in days
 */
public record FetchSummary(long finishedAt, int newItems, int[] typeCounts, double[] daysToEvent) {

  /** At most this many event distances are kept per fetch (bounds the state of huge calendars). */
  public static final int MAX_EVENTS = 64;

  public FetchSummary {
    if (typeCounts.length != SignalTypes.COUNT) {
      throw new IllegalArgumentException("one count per signal type");
    }
  }

  /** A fetch that found nothing new (e.g. 304 Not Modified). */
  public static FetchSummary empty(long finishedAt) {
    return new FetchSummary(finishedAt, 0, new int[SignalTypes.COUNT], new double[0]);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FetchSummary f
        && f.finishedAt == finishedAt
        && f.newItems == newItems
        && Arrays.equals(f.typeCounts, typeCounts)
        && Arrays.equals(f.daysToEvent, daysToEvent);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(finishedAt) * 31 + newItems;
  }

  @Override
  public String toString() {
    return "FetchSummary[finishedAt="
        + finishedAt
        + ", newItems="
        + newItems
        + ", typeCounts="
        + Arrays.toString(typeCounts)
        + ", daysToEvent="
        + Arrays.toString(daysToEvent)
        + "]";
  }
}
