package io.freshet.stack.demoweb;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the demo web published and served. Published: every version visible at some trace time since
 * serving started (derived from the timelines, so it needs no bookkeeping); served: the versions it
 * actually returned in a 200 response, with the wall time of the first such response.
 *
 * <p>A version of a deliverable source published while it is being fetched often enough ends up
 * served; one that scrolled out of a feed between two fetches, or a page version replaced before
 * the next fetch, was published but never served — no client could have stored it.
 *
 * <p>Nor could a client store a calendar event that had ended more than {@link #CALENDAR_REACH}
 * before the response that listed it: a calendar's items are the events of a window around the
 * fetch, and the fetch worker's widest one reaches that far back (its calendar connector's bound
 * when a source sets no window). Such a response counts its version as served beyond the reach
 * ({@link #servedBeyondReach()}), not as served — unless an earlier response served it within. Only
 * a demo web running near wall speed lists such events: the bundled feed traces' older items.
 */
public final class GroundTruth {

  /** One published version and, if it was served, when first. */
  public record Entry(DemoSource source, ItemVersion version, Instant servedAt) {}

  private final Catalog catalog;
  private final ScaledClock clock;
  private final long serveStartTrace;
  private final Map<String, Instant> served = new ConcurrentHashMap<>();
  private final Map<String, Instant> beyondReach = new ConcurrentHashMap<>();

  /**
   * How far back a client reads a calendar's events: fetch-worker's {@code IcalConnector} reads
   * occurrences that end at most 366 days before the fetch when a source sets no window.
   */
  public static final Duration CALENDAR_REACH = Duration.ofDays(366);

  public GroundTruth(Catalog catalog, ScaledClock clock) {
    this.catalog = catalog;
    this.clock = clock;
    this.serveStartTrace = clock.traceNow();
  }

  /** Records that a 200 response at {@code wall} carried these versions. */
  public void markServed(List<ItemVersion> versions, Instant wall) {
    Instant reach = wall.minus(CALENDAR_REACH);
    for (ItemVersion v : versions) {
      if (!served.containsKey(v.key()) && beyondReach(v, reach)) {
        beyondReach.putIfAbsent(v.key(), wall);
      } else {
        served.putIfAbsent(v.key(), wall);
      }
    }
  }

  private boolean beyondReach(ItemVersion v, Instant reach) {
    return catalog.get(v.sourceId()).kind() == Kind.ICAL
        && Renderer.eventEnd(clock, v).isBefore(reach);
  }

  /** Versions served only beyond a calendar client's reach ({@link #CALENDAR_REACH}). */
  public int servedBeyondReach() {
    return beyondReach.size();
  }

  /** The trace time serving started at (epoch seconds). */
  public long serveStartTrace() {
    return serveStartTrace;
  }

  /** Every version of {@code source} published since serving started, with its serving time. */
  public List<Entry> entries(DemoSource source) {
    List<Entry> out = new ArrayList<>();
    for (ItemVersion v : source.visibleDuring(serveStartTrace, clock.traceNow())) {
      out.add(new Entry(source, v, served.get(v.key())));
    }
    return out;
  }

  /** Every published version of every source, source by source. */
  public List<Entry> entries() {
    List<Entry> out = new ArrayList<>();
    for (DemoSource s : catalog.sources()) {
      out.addAll(entries(s));
    }
    return out;
  }

  /** Per deliverable source, how many versions were served (what the store must hold). */
  public Map<String, Integer> servedCountBySource() {
    Map<String, Integer> out = new LinkedHashMap<>();
    for (DemoSource s : catalog.sources()) {
      if (s.behaviour().deliverable()) {
        int n = 0;
        for (Entry e : entries(s)) {
          if (e.servedAt() != null) {
            n++;
          }
        }
        out.put(s.id(), n);
      }
    }
    return out;
  }

  /** Totals over every source. */
  public Summary summary() {
    int deliverable = 0;
    long published = 0;
    long servedCount = 0;
    for (DemoSource s : catalog.sources()) {
      if (!s.behaviour().deliverable()) {
        continue;
      }
      deliverable++;
      for (Entry e : entries(s)) {
        published++;
        if (e.servedAt() != null) {
          servedCount++;
        }
      }
    }
    return new Summary(catalog.size(), deliverable, published, servedCount, beyondReach.size());
  }

  /**
   * @param sources demo sources
   * @param deliverableSources those whose content a client can read (not malformed, not looping)
   * @param publishedVersions versions of deliverable sources published since serving started
   * @param servedVersions of those, the ones returned in at least one 200 response
   * @param servedBeyondReach returned only as calendar events beyond a client's reach ({@link
   *     #CALENDAR_REACH}), so not among {@code servedVersions}
   */
  public record Summary(
      int sources,
      int deliverableSources,
      long publishedVersions,
      long servedVersions,
      long servedBeyondReach) {}
}
