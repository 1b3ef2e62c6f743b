package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.demoweb.Catalog;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWeb;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.launcher.ManagedProcess;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Cadence on the real stack ({@link StackFixture}: broker, PostgreSQL, registry and the four
 * services as processes): sources of known character are created through the scheduler's API, in a
 * {@code pro} tenant, on a demo web of chosen real traces at 1440×, and their intervals — {@code
 * next_due_at − last_fetch_at} as {@code GET /sources/{id}} shows them — are read before their
 * stats arrive, once the stats of the first fetch arrive, and after two rounds of fetch-now.
 *
 * <p>The services run in real time and the demo web 1440× faster, so the intervals are read, not
 * waited out: each is what the scheduler stored after the outcome or stats it just applied. The
 * tier minimum (pro: 1 h) and the modes' bounds are real time, as in production; the demo web's
 * dates are wall time, so a feed publishing daily in the trace publishes every minute here.
 *
 * <p>"Before the stats": the stats-aggregator is paused (SIGSTOP) while the first fetches' outcomes
 * are applied, so that those outcomes find no stats, then resumed (SIGCONT): without the pause, an
 * outcome and the stats of the same fetch race (two consumers of one topic) and the stat-less
 * interval may never be stored.
 *
 * <p>The fixture's own demo web serves its few demo sources; the sources here are on a second demo
 * web in the test JVM that serves only the chosen traces ({@link Catalog#fromBundledTraces(
 * DemoWebSettings, java.util.Collection)}), because a small catalog takes the busiest feeds only.
 */
class CadenceEndToEndIT {

  /** About an item a trace day before the replay start: 20 listed items span 28 wall minutes. */
  static final String BUSY_FEED = "feed-0027";

  /**
   * 15 items over 24 trace years, the last 10 about 269 trace days (so 269 wall minutes) apart;
   * none in the replay's first 10 trace days (10 wall minutes).
   */
  static final String DORMANT_FEED = "feed-0022";

  /** No change in the replay's first 10 trace days. */
  static final String DORMANT_PAGE = "page-0001";

  static final String TENANT = "cadence";
  static final Duration TIER_MINIMUM = Duration.ofHours(1); // pro
  static final Duration FEED_DEFAULT = Duration.ofMinutes(120);
  static final Duration FEED_MIN = Duration.ofMinutes(15);
  static final Duration FEED_MAX = Duration.ofHours(24);
  static final Duration AWAIT = Duration.ofSeconds(180); // a heavily shared machine

  /** One source under test: its demo document and its cadence. */
  record Probe(String name, String demoId, String connector, String cadence) {}

  static final List<Probe> PROBES =
      List.of(
          new Probe(
              "ff-busy",
              "rss-" + BUSY_FEED,
              "feed",
              "{\"mode\":\"feed_frequency\",\"default_minutes\":120}"),
          new Probe(
              "ff-dormant",
              "rss-" + DORMANT_FEED,
              "feed",
              "{\"mode\":\"feed_frequency\",\"default_minutes\":120}"),
          new Probe("ad-busy", "atom-" + BUSY_FEED, "feed", "{\"mode\":\"adaptive\"}"),
          new Probe("ad-dormant", "atom-" + DORMANT_FEED, "feed", "{\"mode\":\"adaptive\"}"),
          new Probe(
              "sa-busy",
              "ical-" + BUSY_FEED,
              "ical",
              "{\"mode\":\"signal_adaptive\",\"category\":\"social\"}"),
          new Probe(
              "sa-dormant",
              DORMANT_PAGE,
              "html",
              "{\"mode\":\"signal_adaptive\",\"category\":\"website\"}"));

  static StackFixture stack;
  static DemoWeb web;

  @BeforeAll
  static void startEverything() throws Exception {
    stack = StackFixture.start("cadence", 5);
    web =
        DemoWeb.start(
            DemoWebSettings.defaults().withMisbehaving(false).withPort(0),
            Catalog.fromBundledTraces(
                DemoWebSettings.defaults().withMisbehaving(false),
                List.of(BUSY_FEED, DORMANT_FEED, DORMANT_PAGE)),
            Clock.systemUTC());
  }

  @AfterAll
  static void stopEverything() {
    if (web != null) {
      web.close();
    }
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void busyTightensDormantLoosensAsStatsArriveAndFetchNowIsPromptlyAppliedToTheSchedule()
      throws Exception {
    assertDemoSourcesAreAsDescribed();
    stack.post("/tenants", "application/json", "{\"id\":\"" + TENANT + "\",\"tier\":\"pro\"}");

    // 1. The first fetch of each, its outcome applied while the stats-aggregator is paused.
    awaitStatsAggregatorIdle();
    Map<Probe, String> ids = new LinkedHashMap<>();
    Map<Probe, SourceSchedule> before;
    signal("stats-aggregator", "STOP");
    try {
      for (Probe p : PROBES) {
        ids.put(p, create(p));
      }
      before = awaitAll(ids, r -> r.settled() && r.epoch() == 1);
    } finally {
      signal("stats-aggregator", "CONT");
    }
    before.forEach(
        (p, r) ->
            assertThat(r.statsUpdatedAt()).as(p.name() + ": no stats before the resume").isNull());

    // 2. The stats of the first fetch arrive.
    Map<Probe, SourceSchedule> stats1 = awaitAll(ids, r -> r.settled() && r.windowFetches() == 1);

    // 3. Two rounds of fetch-now, each fetch's outcome then its stats applied.
    List<Duration> applied = new ArrayList<>();
    List<Duration> fetched = new ArrayList<>();
    fetchNowRound(ids, 2, applied, fetched);
    Map<Probe, SourceSchedule> stats2 = awaitAll(ids, r -> r.settled() && r.windowFetches() == 2);
    fetchNowRound(ids, 3, applied, fetched);
    Map<Probe, SourceSchedule> stats3 = awaitAll(ids, r -> r.settled() && r.windowFetches() == 3);

    print(before, stats1, stats2, stats3, applied, fetched);

    // Before any stats: each mode's stat-less interval.
    assertThat(before.get(probe("ff-busy")).interval()).isEqualTo(FEED_DEFAULT);
    assertThat(before.get(probe("ff-dormant")).interval()).isEqualTo(FEED_DEFAULT);
    assertThat(before.get(probe("sa-busy")).interval()).isEqualTo(Duration.ofHours(12));
    assertThat(before.get(probe("sa-dormant")).interval()).isEqualTo(Duration.ofHours(168));
    Duration adaptiveColdStart = before.get(probe("ad-busy")).interval();
    assertThat(before.get(probe("ad-dormant")).interval()).isEqualTo(adaptiveColdStart);
    assertThat(adaptiveColdStart).isGreaterThan(TIER_MINIMUM);

    // feed_frequency: the mean gap of the latest 10 publication dates, clamped, as soon as the
    // stats carry them — checked against the demo web's own dates.
    for (String name : List.of("ff-busy", "ff-dormant")) {
      Probe p = probe(name);
      SourceSchedule r = stats1.get(p);
      Duration meanGap = meanGapOfLatestTen(web.catalog().get(p.demoId()), r.lastFetchAt());
      assertThat(Duration.ofMillis(r.publishIntervalMs()))
          .as(name + ": the stats' mean gap (whole ms) is the demo web's")
          .isCloseTo(meanGap, Duration.ofMillis(1));
      assertThat(r.interval())
          .as(name + " = max(tier minimum, clamp(mean gap %s, 15 min, 24 h))", meanGap)
          .isCloseTo(max(TIER_MINIMUM, clamp(meanGap, FEED_MIN, FEED_MAX)), Duration.ofMillis(1));
    }
    assertThat(stats1.get(probe("ff-busy")).interval())
        .isLessThan(before.get(probe("ff-busy")).interval());
    assertThat(stats1.get(probe("ff-dormant")).interval())
        .isGreaterThan(before.get(probe("ff-dormant")).interval());

    // adaptive: the busy feed's estimated change rate tightens it, the dormant feed's loosens it.
    assertThat(stats1.get(probe("ad-busy")).changeRate())
        .isGreaterThan(stats1.get(probe("ad-dormant")).changeRate());
    assertThat(stats1.get(probe("ad-busy")).interval()).isLessThan(adaptiveColdStart);
    assertThat(stats1.get(probe("ad-dormant")).interval()).isGreaterThan(adaptiveColdStart);

    // signal_adaptive: the category base until 3 fetches (cold start), then the table of
    // ADR 0010 (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md).
    for (String name : List.of("sa-busy", "sa-dormant")) {
      Probe p = probe(name);
      assertThat(stats1.get(p).interval()).as(name + " cold").isEqualTo(before.get(p).interval());
      assertThat(stats2.get(p).interval()).as(name + " cold").isEqualTo(before.get(p).interval());
    }
    SourceSchedule busy = stats3.get(probe("sa-busy"));
    assertThat(busy.yield())
        .as("a busy calendar: 3+ new items per fetch")
        .isGreaterThanOrEqualTo(3);
    assertThat(busy.dominant()).as("calendar items are events").isEqualToIgnoringCase("event");
    assertThat(busy.interval())
        .isEqualTo(signalAdaptive(Duration.ofHours(12), Duration.ofHours(4), busy))
        .isLessThan(before.get(probe("sa-busy")).interval());
    SourceSchedule dormant = stats3.get(probe("sa-dormant"));
    assertThat(dormant.yield()).as("one version in three fetches").isLessThan(3);
    assertThat(dormant.medianDays()).as("a page has no event dates").isNull();
    assertThat(dormant.interval())
        .as("168 h × 1 × 1 × 1.5 (no dates), ADR 0010's dormant page")
        .isEqualTo(Duration.ofHours(252))
        .isGreaterThan(before.get(probe("sa-dormant")).interval());

    // The directions hold after the fetch-now rounds too.
    assertThat(stats3.get(probe("ff-busy")).interval()).isLessThan(FEED_DEFAULT);
    assertThat(stats3.get(probe("ff-dormant")).interval()).isGreaterThan(FEED_DEFAULT);
    assertThat(stats3.get(probe("ad-busy")).interval()).isLessThan(adaptiveColdStart);
    assertThat(stats3.get(probe("ad-dormant")).interval()).isGreaterThan(adaptiveColdStart);
  }

  /** The traces chosen are busy and dormant over this test's span of the replay. */
  private static void assertDemoSourcesAreAsDescribed() {
    long now = web.clock().traceNow();
    long inTenMinutes = web.clock().toTrace(Instant.now().plus(Duration.ofMinutes(10)));
    for (String id : List.of("rss-" + DORMANT_FEED, DORMANT_PAGE)) {
      DemoSource s = web.catalog().get(id);
      assertThat(s.publishedCount(inTenMinutes))
          .as(id + " is dormant")
          .isEqualTo(s.publishedCount(now));
    }
    DemoSource busy = web.catalog().get("rss-" + BUSY_FEED);
    var listed = busy.visibleAt(now);
    assertThat(listed).hasSize(20);
    assertThat(listed.getLast().publishedTrace() - listed.getFirst().publishedTrace())
        .as("20 listed items within 30 trace days")
        .isLessThan(Duration.ofDays(30).toSeconds());
  }

  /**
   * {@code POST /sources/{id}/fetch} for every probe, each due no sooner than half an hour from now
   * (so only the request can make it due), then waits until each has been fetched (the content
   * store's activity log has the fetch, 200 or 304) and its outcome applied (lease released, epoch
   * {@code round}); adds each request's time to outcome applied and to the fetch finished.
   */
  private void fetchNowRound(
      Map<Probe, String> ids, int round, List<Duration> applied, List<Duration> fetched)
      throws Exception {
    Map<Probe, Instant> asked = new LinkedHashMap<>();
    for (var e : ids.entrySet()) {
      SourceSchedule r = SourceSchedule.read(stack, e.getValue());
      assertThat(r.nextDueAt())
          .as(e.getKey().name() + " not due anyway")
          .isAfter(Instant.now().plus(Duration.ofMinutes(30)));
      asked.put(e.getKey(), Instant.now());
      stack.post("/sources/" + e.getValue() + "/fetch", "application/json", "");
    }
    Map<Probe, Instant> done = new LinkedHashMap<>();
    Awaitility.await()
        .atMost(AWAIT)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              for (var e : ids.entrySet()) {
                if (!done.containsKey(e.getKey())) {
                  SourceSchedule r = SourceSchedule.read(stack, e.getValue());
                  if (r.settled() && r.epoch() == round) {
                    done.put(e.getKey(), Instant.now());
                  }
                }
              }
              return done.size() == ids.size();
            });
    for (var e : ids.entrySet()) {
      Instant at = asked.get(e.getKey());
      applied.add(Duration.between(at, done.get(e.getKey())));
      Instant finished = awaitFetchLogged(e.getValue(), round);
      fetched.add(Duration.between(at, finished));
      assertThat(SourceSchedule.read(stack, e.getValue()).lastOutcomeAt()).isAfterOrEqualTo(at);
    }
  }

  /**
   * The content store's record of the fetch of {@code epoch} (the worker's own account of it): its
   * finish time, once its HTTP status is known to be 200 or 304.
   */
  private static Instant awaitFetchLogged(String sourceId, long epoch) {
    record Logged(int httpStatus, Instant finishedAt) {}
    Logged logged =
        Awaitility.await()
            .atMost(AWAIT)
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptions()
            .until(
                () -> {
                  try (Connection c = stack.connect();
                      var st =
                          c.prepareStatement(
                              "SELECT http_status, finished_at FROM content.activity_log"
                                  + " WHERE source_id = ? AND epoch = ? AND completed")) {
                    st.setString(1, sourceId);
                    st.setLong(2, epoch);
                    try (ResultSet rs = st.executeQuery()) {
                      return rs.next()
                          ? new Logged(rs.getInt(1), rs.getTimestamp(2).toInstant())
                          : null;
                    }
                  }
                },
                l -> l != null);
    assertThat(logged.httpStatus()).as("fetch %d of %s", epoch, sourceId).isIn(200, 304);
    return logged.finishedAt();
  }

  private static void awaitStatsAggregatorIdle() {
    // every outcome so far (the fixture's first fetches) has its stats applied: nothing in flight
    Awaitility.await()
        .atMost(AWAIT)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(
            () ->
                stack.count(
                        "SELECT count(*) FROM scheduler.sources WHERE window_fetches = 0"
                            + " AND created_at >= ?",
                        Instant.EPOCH)
                    == 0);
  }

  private static String create(Probe p) throws Exception {
    String body =
        "{\"tenant_id\":\""
            + TENANT
            + "\",\"name\":\""
            + p.name()
            + "\",\"connector\":\""
            + p.connector()
            + "\",\"url\":\""
            + web.url(web.catalog().get(p.demoId()))
            + "\",\"config\":{\"cadence\":"
            + p.cadence()
            + "}}";
    return StackFixture.JSON
        .readTree(stack.post("/sources", "application/json", body))
        .get("id")
        .asString();
  }

  private static Map<Probe, SourceSchedule> awaitAll(
      Map<Probe, String> ids, Predicate<SourceSchedule> done) {
    Map<Probe, SourceSchedule> out = new LinkedHashMap<>();
    Awaitility.await()
        .atMost(AWAIT)
        .pollInterval(Duration.ofMillis(250))
        .until(
            () -> {
              for (var e : ids.entrySet()) {
                SourceSchedule r = SourceSchedule.read(stack, e.getValue());
                if (!done.test(r)) {
                  return false;
                }
                out.put(e.getKey(), r);
              }
              return true;
            });
    return out;
  }

  /**
   * The mean gap of ADR 0011 (docs/adr/0011-feed-frequency-from-the-last-ten-items.md) over what
   * the demo web listed at {@code fetchedAt}: the 10 newest distinct publication dates (wall time),
   * (newest − oldest) / (n − 1).
   */
  static Duration meanGapOfLatestTen(DemoSource s, Instant fetchedAt) {
    List<Instant> dates =
        s.visibleAt(web.clock().toTrace(fetchedAt)).stream()
            .map(v -> web.clock().toWall(v.publishedTrace()))
            .distinct()
            .sorted(Comparator.reverseOrder())
            .limit(10)
            .toList();
    return Duration.between(dates.getLast(), dates.getFirst()).dividedBy(dates.size() - 1);
  }

  /** ADR 0010's rule: base × yield × type × urgency, clamped to [floor, ceiling]. */
  static Duration signalAdaptive(Duration base, Duration floor, SourceSchedule r) {
    double yield = r.yield() != null && r.yield() >= 3 ? 0.5 : 1.0;
    double type =
        switch (r.dominant() == null ? "" : r.dominant().toLowerCase(Locale.ROOT)) {
          case "event", "ask" -> 0.5;
          case "give" -> 0.75;
          default -> 1.0;
        };
    double urgency =
        r.medianDays() == null || r.medianDays() > 30 ? 1.5 : r.medianDays() < 7 ? 0.5 : 1.0;
    Duration raw = Duration.ofNanos(Math.round(base.toNanos() * yield * type * urgency));
    return max(floor, raw);
  }

  static Duration clamp(Duration d, Duration min, Duration max) {
    return d.compareTo(min) < 0 ? min : d.compareTo(max) > 0 ? max : d;
  }

  static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static Probe probe(String name) {
    return PROBES.stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }

  /** Sends {@code SIG<name>} to a running service (a pause is STOP, then CONT). */
  private static void signal(String module, String name) throws Exception {
    ManagedProcess p =
        stack.services.running().stream()
            .filter(m -> m.name().equals(module) && m.isAlive())
            .findFirst()
            .orElseThrow();
    Process kill =
        new ProcessBuilder("kill", "-" + name, Long.toString(p.pid()))
            .redirectErrorStream(true)
            .start();
    assertThat(kill.waitFor()).as("kill -" + name + " " + module).isZero();
  }

  private static void print(
      Map<Probe, SourceSchedule> before,
      Map<Probe, SourceSchedule> stats1,
      Map<Probe, SourceSchedule> stats2,
      Map<Probe, SourceSchedule> stats3,
      List<Duration> applied,
      List<Duration> fetched) {
    StringBuilder b = new StringBuilder();
    b.append(
        "cadence e2e (tenant tier pro: 1 h minimum; demo web 1440x), interval = next_due_at - last_fetch_at\n");
    b.append(
        String.format(
            "%-11s %-20s %-16s %12s %12s %12s %12s   %s%n",
            "source",
            "demo document",
            "mode",
            "no stats",
            "stats of 1",
            "of 2",
            "of 3",
            "stats of 3 (yield, type, median days, mean gap, change rate/h)"));
    for (Probe p : PROBES) {
      SourceSchedule r = stats3.get(p);
      b.append(
          String.format(
              Locale.ROOT,
              "%-11s %-20s %-16s %12s %12s %12s %12s   %.2f, %s, %s, %s, %s%n",
              p.name(),
              p.demoId(),
              StackFixture.JSON.readTree(p.cadence()).get("mode").asString(),
              human(before.get(p).interval()),
              human(stats1.get(p).interval()),
              human(stats2.get(p).interval()),
              human(r.interval()),
              r.yield(),
              r.dominant(),
              r.medianDays() == null ? "-" : String.format(Locale.ROOT, "%.4f", r.medianDays()),
              r.publishIntervalMs() == null ? "-" : human(Duration.ofMillis(r.publishIntervalMs())),
              r.changeRate() == null ? "-" : String.format(Locale.ROOT, "%.4f", r.changeRate())));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "fetch-now: %d requests of sources due 30 min to 168 h later; fetched (worker done) after %s;"
                + " outcome applied after %s (polled every 0.2 s)%n",
            applied.size(),
            spread(fetched),
            spread(applied)));
    System.out.print(b);
  }

  private static String spread(List<Duration> ds) {
    List<Duration> sorted = ds.stream().sorted().toList();
    return String.format(
        Locale.ROOT,
        "min %.1f s, median %.1f s, max %.1f s",
        sorted.getFirst().toMillis() / 1000.0,
        sorted.get(sorted.size() / 2).toMillis() / 1000.0,
        sorted.getLast().toMillis() / 1000.0);
  }

  private static String human(Duration d) {
    double minutes = d.toMillis() / 60_000.0;
    return minutes < 120
        ? String.format(Locale.ROOT, "%.1f min", minutes)
        : String.format(Locale.ROOT, "%.2f h", minutes / 60);
  }
}
