package io.freshet.stack.launcher;

import io.freshet.stack.demoweb.DemoHub;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The figures of {@code ./freshet push-report}: pushed feeds against polled feeds over a window of
 * the running demo, from the demo web's ground truth (what was published, when, by which feeds,
 * which of them push) and what the stack did (fetches asked, items stored). Pure: the command
 * ({@link PushReportCommand}) reads the services and the demo web and hands the readings here.
 *
 * <p>Only feeds (RSS, Atom, JSON Feed) on well-behaved hosts are compared, since only those push:
 * calendars, APIs, pages and misbehaving hosts are left out. They fall in three groups by the hub
 * their documents announce ({@link Group}).
 *
 * <p>Percentiles are nearest-rank: the p-quantile of n sorted values is the ⌈p·n⌉-th.
 */
public final class PushReport {

  private PushReport() {}

  /** The demo web's kinds of feed: only these announce a hub. */
  static final Set<String> FEED_KINDS = Set.of("rss", "atom", "json_feed");

  /** How a feed is kept fresh, by the hub it announces. */
  public enum Group {
    /** Announces the demo's good hub: subscribed, notified, polled only as a safety net. */
    PUSHED("pushed feeds (good hub)"),
    /** Announces a hub that denies, never verifies, signs wrongly or lets its lease lapse. */
    HUB_MISBEHAVES("feeds with a misbehaving hub"),
    /** Announces no hub: polled on its cadence. */
    POLLED("polled feeds (no hub)");

    private final String label;

    Group(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /**
   * A demo source as the ground truth describes it ({@code /_truth/sources}).
   *
   * @param id the demo id (the last segment of its URL)
   * @param kind {@code rss}, {@code atom}, {@code json_feed}, {@code ical}, ...
   * @param behaviour its host's behaviour, {@code normal} when it behaves
   * @param hub the hub variant it announces ({@code good}, {@code denies}, ...), null for none
   */
  public record Source(String id, String kind, String behaviour, String hub) {}

  /**
   * The demo's id of an item from the id the content store holds: an Atom entry's id is a URN
   * around it ({@link DemoHub#ATOM_ID_PREFIX}), other kinds state it as it is.
   */
  public static String demoItemId(String storedItemId) {
    return storedItemId.startsWith(DemoHub.ATOM_ID_PREFIX)
        ? storedItemId.substring(DemoHub.ATOM_ID_PREFIX.length())
        : storedItemId;
  }

  /** The group of a source; null when it is not compared (not a feed, or a misbehaving host). */
  public static Group groupOf(Source s) {
    if (!FEED_KINDS.contains(s.kind()) || !"normal".equals(s.behaviour())) {
      return null;
    }
    if (s.hub() == null) {
      return Group.POLLED;
    }
    return "good".equals(s.hub()) ? Group.PUSHED : Group.HUB_MISBEHAVES;
  }

  /**
   * An item the demo web published.
   *
   * @param sourceId the demo id of its source
   * @param publishedAt when it was published, wall time
   * @param storedFetchedAt the {@code fetched_at} of its row in the content store (when the worker
   *     read it; the row is stored from that read), or null when the store held none when read
   */
  public record Item(
      String sourceId, String itemId, Instant publishedAt, Instant storedFetchedAt) {}

  /**
   * The window observed.
   *
   * @param start its start (wall)
   * @param end its end (wall): items published in {@code [start, end)} count
   * @param readAt when the content store was read (after {@code end})
   * @param scale demo (trace) seconds per wall second
   */
  public record Window(Instant start, Instant end, Instant readAt, double scale) {
    Duration length() {
      return Duration.between(start, end);
    }
  }

  /**
   * One group's figures.
   *
   * @param feeds the group's feeds
   * @param fetches fetches asked for them during the window (claims: the epochs' growth)
   * @param published items they published during the window
   * @param delaysMs publish-to-stored delays of the published items stored, wall milliseconds
   * @param notStoredAgesMs of the published items with no stored row when read: how long before the
   *     read each was published, wall milliseconds, ascending
   */
  public record Figures(
      Group group,
      int feeds,
      long fetches,
      int published,
      List<Long> delaysMs,
      List<Long> notStoredAgesMs) {

    /** Fetches per new item; NaN when nothing was published. */
    public double fetchesPerItem() {
      return published == 0 ? Double.NaN : (double) fetches / published;
    }

    /** The nearest-rank p-quantile of the delays (ms), -1 when none was stored. */
    public long delay(double p) {
      return percentile(delaysMs, p);
    }
  }

  /**
   * The figures of each group.
   *
   * @param sources every demo source by id
   * @param fetches fetches asked during the window by demo id (absent: none)
   * @param items the items published, any time (only those in the window count)
   */
  public static Map<Group, Figures> figures(
      Map<String, Source> sources, Map<String, Long> fetches, List<Item> items, Window window) {
    Map<Group, Integer> feeds = new EnumMap<>(Group.class);
    Map<Group, Long> asked = new EnumMap<>(Group.class);
    for (Source s : sources.values()) {
      Group g = groupOf(s);
      if (g != null) {
        feeds.merge(g, 1, Integer::sum);
        asked.merge(g, fetches.getOrDefault(s.id(), 0L), Long::sum);
      }
    }
    Map<Group, Integer> published = new EnumMap<>(Group.class);
    Map<Group, List<Long>> delays = new EnumMap<>(Group.class);
    Map<Group, List<Long>> missing = new EnumMap<>(Group.class);
    for (Item item : items) {
      Source s = sources.get(item.sourceId());
      Group g = s == null ? null : groupOf(s);
      if (g == null
          || item.publishedAt().isBefore(window.start())
          || !item.publishedAt().isBefore(window.end())) {
        continue;
      }
      published.merge(g, 1, Integer::sum);
      if (item.storedFetchedAt() != null) {
        delays
            .computeIfAbsent(g, k -> new ArrayList<>())
            .add(Duration.between(item.publishedAt(), item.storedFetchedAt()).toMillis());
      } else {
        missing
            .computeIfAbsent(g, k -> new ArrayList<>())
            .add(Duration.between(item.publishedAt(), window.readAt()).toMillis());
      }
    }
    Map<Group, Figures> out = new EnumMap<>(Group.class);
    for (Group g : Group.values()) {
      List<Long> d = new ArrayList<>(delays.getOrDefault(g, List.of()));
      d.sort(null);
      List<Long> m = new ArrayList<>(missing.getOrDefault(g, List.of()));
      m.sort(null);
      out.put(
          g,
          new Figures(
              g,
              feeds.getOrDefault(g, 0),
              asked.getOrDefault(g, 0L),
              published.getOrDefault(g, 0),
              List.copyOf(d),
              List.copyOf(m)));
    }
    return out;
  }

  /** The nearest-rank p-quantile (0 &lt; p ≤ 1) of {@code values}; -1 when there are none. */
  public static long percentile(List<Long> values, double p) {
    if (values.isEmpty()) {
      return -1;
    }
    List<Long> sorted = values.stream().sorted().toList();
    int i = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.clamp(i, 0, sorted.size() - 1));
  }

  /** One line a group, as the command prints it. */
  public static String line(Figures f, double scale) {
    StringBuilder b =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%s: %d feeds, %d new items published, %d fetches, %s fetches per new item",
                f.group().label(),
                f.feeds(),
                f.published(),
                f.fetches(),
                Double.isNaN(f.fetchesPerItem())
                    ? "n/a"
                    : String.format(Locale.ROOT, "%.2f", f.fetchesPerItem())));
    b.append("; publish-to-stored delay ");
    if (f.delaysMs().isEmpty()) {
      b.append("n/a (none stored)");
    } else {
      b.append("median ")
          .append(delay(f.delay(0.5), scale))
          .append(", p95 ")
          .append(delay(f.delay(0.95), scale))
          .append(" (n=")
          .append(f.delaysMs().size())
          .append(')');
    }
    List<Long> missing = f.notStoredAgesMs();
    if (!missing.isEmpty()) {
      List<String> ages = new ArrayList<>();
      for (long ms : missing.subList(0, Math.min(5, missing.size()))) {
        ages.add(String.format(Locale.ROOT, "%.0f s", ms / 1000.0));
      }
      b.append("; not stored when read: ")
          .append(missing.size())
          .append(" (published ")
          .append(String.join(", ", ages))
          .append(missing.size() > 5 ? ", …" : "")
          .append(" before the read)");
    }
    return b.toString();
  }

  /** A delay in wall seconds and in demo (trace) time, e.g. {@code 1.2 s wall = 29 trace min}. */
  static String delay(long ms, double scale) {
    double wall = ms / 1000.0;
    return String.format(Locale.ROOT, "%.1f s wall = %s", wall, traceSpan(wall * scale));
  }

  /** A span of trace time for people: 40 trace s, 29 trace min, 1.4 trace h, 2.3 trace days. */
  static String traceSpan(double seconds) {
    double abs = Math.abs(seconds);
    if (abs < 60) {
      return String.format(Locale.ROOT, "%.0f trace s", seconds);
    }
    if (abs < 3_600) {
      return String.format(Locale.ROOT, "%.0f trace min", seconds / 60);
    }
    if (abs < 86_400) {
      return String.format(Locale.ROOT, "%.1f trace h", seconds / 3_600);
    }
    return String.format(Locale.ROOT, "%.1f trace days", seconds / 86_400);
  }
}
