package io.freshet.stack.demoweb;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The demo sources, built deterministically from the traces: feed traces become feeds (RSS, Atom,
 * JSON Feed), calendars and sync-token APIs — each feed trace once per kind — and page traces
 * become HTML pages; with a history share, complete-history feed traces (bursty: several items
 * often appear at once) become feeds too and release traces pages. Sources are spread over {@code
 * hosts} loopback addresses; a few hosts misbehave (see {@link #behaviourOf(int)}).
 */
public final class Catalog {

  /** Kinds that take their timelines from the feed trace, in the order sources cycle through. */
  static final Kind[] ITEM_KINDS = {Kind.RSS, Kind.ATOM, Kind.JSON_FEED, Kind.ICAL, Kind.JSON_API};

  /**
   * The kinds a complete-history (bursty) feed trace becomes, in the order sources cycle through.
   */
  static final Kind[] FEED_KINDS = {Kind.RSS, Kind.ATOM, Kind.JSON_FEED};

  /** Of the complete-history sources, the share that are bursty feeds; the rest are releases. */
  static final double BURSTY_SHARE = 0.3;

  /** Out of every this many hosts, the last five misbehave (one per misbehaviour). */
  static final int MISBEHAVING_PERIOD = 80;

  private final Map<String, DemoSource> byId;

  private Catalog(Map<String, DemoSource> byId) {
    this.byId = byId;
  }

  /**
   * Reads the traces shipped in this module's resources (see traces/ATTRIBUTION.md there): the
   * complete-history ones too when {@code settings.historyShare()} is above 0.
   */
  public static Catalog fromBundledTraces(DemoWebSettings settings) {
    TraceTimes feeds = readGzipResource("traces/feeds.csv.gz");
    TraceTimes pages = readGzipResource("traces/pages.csv.gz");
    if (settings.historyShare() == 0) {
      return build(feeds, pages, settings);
    }
    return build(
        feeds,
        pages,
        readGzipResource("traces/feeds-complete.csv.gz"),
        readGzipResource("traces/releases.csv.gz"),
        settings);
  }

  /**
   * Only the bundled traces named in {@code traceIds} (e.g. {@code feed-0027}, {@code page-0001}),
   * each feed trace in every item kind and each page trace as a page: for tests that need a source
   * of a known character (busy, dormant) rather than the busiest ones a small catalog takes. {@code
   * settings.sources()} is ignored.
   *
   * @throws IllegalArgumentException if a trace id is in neither bundled trace
   */
  public static Catalog fromBundledTraces(DemoWebSettings settings, Collection<String> traceIds) {
    TraceTimes feeds = readGzipResource("traces/feeds.csv.gz");
    TraceTimes pages = readGzipResource("traces/pages.csv.gz");
    for (String id : traceIds) {
      if (!feeds.ids().contains(id) && !pages.ids().contains(id)) {
        throw new IllegalArgumentException("no bundled trace " + id);
      }
    }
    TraceTimes chosenFeeds = only(feeds, traceIds);
    TraceTimes chosenPages = only(pages, traceIds);
    int total = chosenFeeds.sources() * ITEM_KINDS.length + chosenPages.sources();
    return build(chosenFeeds, chosenPages, settings.withSources(total));
  }

  /** The sources of {@code trace} named in {@code ids}, in trace order. */
  private static TraceTimes only(TraceTimes trace, Collection<String> ids) {
    List<String> kept = new ArrayList<>();
    List<long[]> times = new ArrayList<>();
    for (int i = 0; i < trace.sources(); i++) {
      if (ids.contains(trace.ids().get(i))) {
        kept.add(trace.ids().get(i));
        times.add(trace.times()[i]);
      }
    }
    return new TraceTimes(kept, times.toArray(long[][]::new));
  }

  /**
   * Builds {@code settings.sources()} sources: up to 57.5 % from feed traces (every item kind in
   * turn), the rest pages, each capped by what the traces hold.
   */
  public static Catalog build(TraceTimes feeds, TraceTimes pages, DemoWebSettings settings) {
    return realise(slots(feeds, pages, settings.sources(), settings), settings);
  }

  /**
   * Builds {@code settings.sources()} sources of which {@code settings.historyShare()} come from
   * the complete-history traces — {@link #BURSTY_SHARE} of those bursty feeds (each trace once per
   * {@link #FEED_KINDS} kind), the rest release pages (a new version changes the page) — and the
   * remainder as {@link #build(TraceTimes, TraceTimes, DemoWebSettings)} makes them; each family is
   * capped by what its trace holds, and spread evenly through the catalog.
   */
  public static Catalog build(
      TraceTimes feeds,
      TraceTimes pages,
      TraceTimes burstyFeeds,
      TraceTimes releases,
      DemoWebSettings settings) {
    int total = settings.sources();
    int burstyCapacity = burstyFeeds.sources() * FEED_KINDS.length;
    int history =
        Math.min(
            burstyCapacity + releases.sources(), (int) Math.round(total * settings.historyShare()));
    int released = Math.min(releases.sources(), history - (int) Math.round(history * BURSTY_SHARE));
    int bursty = Math.min(burstyCapacity, history - released);
    released = Math.min(releases.sources(), history - bursty);
    List<Slot> burstySlots = feedSlots(burstyFeeds, FEED_KINDS, bursty, settings);
    int[] releaseOrder = busiestFirst(releases, settings);
    List<Slot> releaseSlots = new ArrayList<>();
    for (int i = 0; i < released; i++) {
      int r = releaseOrder[i];
      String traceId = releases.ids().get(r);
      releaseSlots.add(new Slot(traceId, Kind.HTML, traceId, releases.times()[r]));
    }
    List<Slot> base = slots(feeds, pages, total - bursty - released, settings);
    return realise(interleave(base, interleave(burstySlots, releaseSlots)), settings);
  }

  /** A source before its place (host, behaviour) in the catalog is known. */
  private record Slot(String id, Kind kind, String traceId, long[] events) {}

  /**
   * {@code total} sources from the two original traces: up to 57.5 % from feed traces (every item
   * kind in turn, busiest first), the rest pages in trace order, interleaved so that any prefix
   * holds every kind.
   */
  private static List<Slot> slots(
      TraceTimes feeds, TraceTimes pages, int total, DemoWebSettings settings) {
    int itemCapacity = feeds.sources() * ITEM_KINDS.length;
    int itemSources = Math.min(itemCapacity, (int) Math.round(total * 0.575));
    int pageSources = Math.min(pages.sources(), total - itemSources);
    itemSources = Math.min(itemCapacity, total - pageSources);
    List<Slot> items = feedSlots(feeds, ITEM_KINDS, itemSources, settings);
    List<Slot> pageSlots = new ArrayList<>();
    for (int i = 0; i < pageSources; i++) {
      String traceId = pages.ids().get(i);
      pageSlots.add(new Slot(traceId, Kind.HTML, traceId, pages.times()[i]));
    }
    return interleave(items, pageSlots);
  }

  /**
   * {@code n} sources from a feed trace: its traces busiest first, each in every one of {@code
   * kinds} in turn (id: the kind's path segment, a dash, the trace id).
   */
  private static List<Slot> feedSlots(
      TraceTimes trace, Kind[] kinds, int n, DemoWebSettings settings) {
    int[] order = busiestFirst(trace, settings);
    List<Slot> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Kind kind = kinds[i % kinds.length];
      int f = order[i / kinds.length];
      String traceId = trace.ids().get(f);
      out.add(new Slot(kind.pathSegment() + "-" + traceId, kind, traceId, trace.times()[f]));
    }
    return out;
  }

  /** {@code a} and {@code b} merged in proportion, each in its own order, {@code a} first. */
  private static List<Slot> interleave(List<Slot> a, List<Slot> b) {
    List<Slot> out = new ArrayList<>(a.size() + b.size());
    int i = 0;
    int j = 0;
    while (i < a.size() || j < b.size()) {
      boolean takeA = i < a.size() && (j >= b.size() || (long) i * b.size() <= (long) j * a.size());
      out.add(takeA ? a.get(i++) : b.get(j++));
    }
    return out;
  }

  /**
   * The slots in order, the k-th on host {@code 1 + k % hosts} with that host's behaviour; when
   * {@code settings.sources()} asks for more than the traces hold, the slots again as copies (id
   * suffix {@code -copy2}, {@code -copy3}, …: same kind and timeline, a source of their own) until
   * there are that many. Copies are for load (a benchmark that must offer more sources than the
   * bundled traces have); every one is fetched, counted and reconciled as any other source.
   */
  private static Catalog realise(List<Slot> slots, DemoWebSettings settings) {
    Map<String, DemoSource> out = new LinkedHashMap<>();
    int wanted = Math.max(settings.sources(), slots.size());
    for (int k = 0; k < wanted && !slots.isEmpty(); k++) {
      Slot slot = slots.get(k % slots.size());
      int copy = k / slots.size() + 1;
      String id = copy == 1 ? slot.id() : slot.id() + COPY_SUFFIX + copy;
      out.put(id, source(id, slot.kind(), slot.traceId(), slot.events(), k, settings));
    }
    return new Catalog(out);
  }

  /** Between a source's id and its copy number, for sources beyond what the traces hold. */
  static final String COPY_SUFFIX = "-copy";

  /**
   * Trace indices ordered by how many events fall in the first {@link #LIVELY_WINDOW} of the
   * replay, most first (ties by trace order): a small catalog is as lively as the traces allow, and
   * a full one still holds every trace.
   */
  static int[] busiestFirst(TraceTimes trace, DemoWebSettings settings) {
    long from = settings.traceStart().getEpochSecond();
    long to = from + LIVELY_WINDOW.toSeconds();
    int n = trace.sources();
    int[] activity = new int[n];
    for (int i = 0; i < n; i++) {
      for (long t : trace.times()[i]) {
        if (t >= from && t < to) {
          activity[i]++;
        }
      }
    }
    return java.util.stream.IntStream.range(0, n)
        .boxed()
        .sorted(
            java.util.Comparator.<Integer>comparingInt(i -> -activity[i]).thenComparingInt(i -> i))
        .mapToInt(Integer::intValue)
        .toArray();
  }

  /** The span of trace time over which {@link #busiestFirst} counts events. */
  static final java.time.Duration LIVELY_WINDOW = java.time.Duration.ofDays(30);

  private static DemoSource source(
      String id, Kind kind, String traceId, long[] events, int k, DemoWebSettings settings) {
    int hostNumber = 1 + k % settings.hosts();
    Behaviour behaviour = settings.misbehaving() ? behaviourOf(hostNumber) : Behaviour.NORMAL;
    return new DemoSource(
        id, kind, hostAddress(hostNumber), behaviour, traceId, events, settings.window());
  }

  /** Host {@code n} (1-based) → 127.0.x.y, one loopback address per host. */
  static String hostAddress(int n) {
    int i = n - 1;
    return "127.0." + (1 + i / 254) + "." + (1 + i % 254);
  }

  /** Hosts 75–79 of every 80 misbehave, one way each; every other host behaves. */
  static Behaviour behaviourOf(int hostNumber) {
    return switch (hostNumber % MISBEHAVING_PERIOD) {
      case 75 -> Behaviour.RATE_LIMITED;
      case 76 -> Behaviour.FLAKY;
      case 77 -> Behaviour.SLOW;
      case 78 -> Behaviour.MALFORMED;
      case 79 -> Behaviour.REDIRECT_LOOP;
      default -> Behaviour.NORMAL;
    };
  }

  public DemoSource get(String id) {
    return byId.get(id);
  }

  public Collection<DemoSource> sources() {
    return byId.values();
  }

  public int size() {
    return byId.size();
  }

  /** The sources of one kind, in catalog order. */
  public List<DemoSource> ofKind(Kind kind) {
    List<DemoSource> out = new ArrayList<>();
    for (DemoSource s : byId.values()) {
      if (s.kind() == kind) {
        out.add(s);
      }
    }
    return out;
  }

  private static TraceTimes readGzipResource(String name) {
    try (InputStream raw = Catalog.class.getResourceAsStream(name)) {
      if (raw == null) {
        throw new IllegalStateException("resource " + name + " missing from the demo web's jar");
      }
      try (var in =
          new BufferedReader(
              new InputStreamReader(new GZIPInputStream(raw), StandardCharsets.UTF_8))) {
        return TraceTimes.read(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + name, e);
    }
  }
}
