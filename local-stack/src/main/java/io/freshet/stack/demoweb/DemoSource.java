package io.freshet.stack.demoweb;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * One demo source and its publication timeline: the trace times of its events, from which what it
 * shows at any trace instant follows. Pure: no clock, no I/O.
 *
 * @param id the source's id, also its URL's last segment
 * @param kind its document format
 * @param host its host (a loopback address of its own, so per-host politeness applies per host)
 * @param behaviour how its host misbehaves, if it does
 * @param traceId the trace source its events come from
 * @param events trace event times, epoch seconds, ascending
 * @param window how many items a feed, calendar or API lists at most (the latest ones)
 */
public record DemoSource(
    String id,
    Kind kind,
    String host,
    Behaviour behaviour,
    String traceId,
    long[] events,
    int window) {

  public DemoSource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(behaviour, "behaviour");
    events = events.clone();
    for (int i = 1; i < events.length; i++) {
      if (events[i] < events[i - 1]) {
        throw new IllegalArgumentException("events of " + id + " are not ascending at " + i);
      }
    }
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1, got " + window);
    }
  }

  /** The URL path of its document. */
  public String path() {
    return "/" + kind.pathSegment() + "/" + id;
  }

  /** How many of its events have happened at trace time {@code traceNow}. */
  public int publishedCount(long traceNow) {
    int lo = 0;
    int hi = events.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (events[mid] <= traceNow) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The versions its document shows at trace time {@code traceNow}, oldest first. */
  public List<ItemVersion> visibleAt(long traceNow) {
    int count = publishedCount(traceNow);
    if (!kind.itemPerEvent()) {
      return List.of(pageVersion(count));
    }
    List<ItemVersion> items = new ArrayList<>();
    for (int i = Math.max(0, count - window); i < count; i++) {
      items.add(item(i));
    }
    return items;
  }

  /**
   * What an API read with sync token {@code token} (the count of events its previous read saw)
   * returns at {@code traceNow}: the items published since, at most {@code window} of the oldest
   * first — the rest follow on the next read. A missing or unusable token reads the latest window.
   */
  public List<ItemVersion> sinceToken(long traceNow, Integer token) {
    int count = publishedCount(traceNow);
    if (token == null || token < 0 || token > count) {
      return visibleAt(traceNow);
    }
    List<ItemVersion> items = new ArrayList<>();
    for (int i = token; i < Math.min(count, token + window); i++) {
      items.add(item(i));
    }
    return items;
  }

  /**
   * Every version whose visibility overlaps the trace interval {@code [from, to]}: the versions a
   * client reading often enough from {@code from} to {@code to} can see — the ground truth a
   * reconciliation compares the store with.
   */
  public List<ItemVersion> visibleDuring(long from, long to) {
    if (to < from) {
      return List.of();
    }
    int countAtFrom = publishedCount(from);
    int countAtTo = publishedCount(to);
    List<ItemVersion> out = new ArrayList<>();
    if (!kind.itemPerEvent()) {
      for (int v = countAtFrom; v <= countAtTo; v++) {
        out.add(pageVersion(v));
      }
      return out;
    }
    for (int i = Math.max(0, countAtFrom - window); i < countAtTo; i++) {
      out.add(item(i));
    }
    return out;
  }

  /** The trace time of the newest version shown at {@code traceNow}, or null if it shows none. */
  public Long newestAt(long traceNow) {
    int count = publishedCount(traceNow);
    return count == 0 ? null : events[count - 1];
  }

  private ItemVersion item(int i) {
    return new ItemVersion(id, id + "-" + (i + 1), 1, i, events[i]);
  }

  private ItemVersion pageVersion(int v) {
    long published = v == 0 ? firstOrZero() - 86_400 : events[v - 1];
    return new ItemVersion(id, id, v, v - 1, published);
  }

  private long firstOrZero() {
    return events.length == 0 ? 0 : events[0];
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DemoSource s
        && id.equals(s.id)
        && kind == s.kind
        && host.equals(s.host)
        && behaviour == s.behaviour
        && Objects.equals(traceId, s.traceId)
        && Arrays.equals(events, s.events)
        && window == s.window;
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, kind, host, behaviour, traceId, Arrays.hashCode(events), window);
  }

  @Override
  public String toString() {
    return "DemoSource[" + id + ", " + kind + ", " + host + ", " + behaviour + "]";
  }
}
