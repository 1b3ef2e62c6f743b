package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.demoweb.DemoHub;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.GroundTruth;
import io.freshet.stack.demoweb.Kind;
import io.freshet.stack.demoweb.Reconciliation;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * WebSub on the local stack: the demo web is the hub of a share of its feeds, the push-receiver
 * subscribes through it, the scheduler (on the demo web's clock, as {@code ./freshet up} runs it)
 * turns each notification into a fetch and polls a source with a live subscription only as a safety
 * net. Over a window of the replay, items published on the pushed feeds are stored exactly once
 * (the reconciliation against the demo web's ground truth is printed) while the scheduler polls
 * those feeds — their fetches beyond the notifications the hub delivered — less often than the
 * polled feeds of the same kinds; fetches per new item and the publish-to-served delay of each
 * group are printed too.
 */
class PushEndToEndIT {

  static final int SOURCES = 60;

  /** The launcher's pace: a trace day per wall minute. */
  static final double SCALE = 1440;

  static final Duration WINDOW = Duration.ofSeconds(90);

  /**
   * The scheduler's safety net while push is live, in trace time: 72 trace hours are three wall
   * minutes, longer than the window, so a pushed feed is polled at most once in it (the poll its
   * cadence had already set before push went live). With the default 24 h (a wall minute) it would
   * be polled about as often as the demo's sparse polled feeds, whose cadence is near the 24 h
   * ceiling itself, and the comparison below would be a coin toss.
   */
  static final String SAFETY_NET = "72h";

  @Test
  void pushedFeedsAreStoredExactlyOnceAndFetchedFarLessOftenThanPolledOnes() throws Exception {
    Instant origin = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    DemoWebSettings webSettings =
        DemoWebSettings.defaults().withMisbehaving(false).withScale(SCALE).withOrigin(origin);
    Map<String, String> demoClock =
        Map.of(
            "FRESHET_SCHEDULER_CADENCE_TIME_SCALE", Double.toString(webSettings.scale()),
            "FRESHET_SCHEDULER_CADENCE_TIME_WALL_ORIGIN", origin.toString(),
            "FRESHET_SCHEDULER_CADENCE_TIME_MODEL_ORIGIN", webSettings.traceStart().toString(),
            "FRESHET_SCHEDULER_PUSH_SAFETY_NET_INTERVAL", SAFETY_NET);
    try (StackFixture stack = StackFixture.start("push", SOURCES, webSettings, 1, demoClock)) {
      Map<String, String> pushed = new HashMap<>();
      Map<String, String> polled = new HashMap<>();
      Map<DemoHub.Variant, String> misbehaving = new HashMap<>(); // variant -> a scheduler id
      stack.demoIdBySourceId.forEach(
          (id, demoId) -> {
            DemoSource s = stack.web.catalog().get(demoId);
            if (!(s.kind() == Kind.RSS || s.kind() == Kind.ATOM || s.kind() == Kind.JSON_FEED)) {
              return;
            }
            DemoHub.Variant v = DemoHub.variantOf(s);
            if (v == DemoHub.Variant.GOOD) {
              pushed.put(id, demoId);
            } else if (v == null) {
              polled.put(id, demoId);
            } else {
              misbehaving.put(v, id);
            }
          });
      assertThat(misbehaving)
          .as("a feed on each misbehaving hub")
          .containsKeys(
              DemoHub.Variant.DENIES,
              DemoHub.Variant.SILENT,
              DemoHub.Variant.BAD_SIGNATURE,
              DemoHub.Variant.LAPSES);
      assertThat(pushed).as("pushed feeds").hasSizeGreaterThanOrEqualTo(3);
      assertThat(polled).as("polled feeds").hasSizeGreaterThanOrEqualTo(3);

      // The receiver learns the hubs from the first fetches, subscribes, the demo hub verifies,
      // and the scheduler hears that push is live.
      Awaitility.await("live subscriptions")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .until(() -> live(stack, pushed.keySet()) == pushed.size());
      System.out.printf(
          "push e2e: %d pushed feeds live, %d polled feeds; demo hub %s%n",
          pushed.size(), polled.size(), stack.web.hub().counts());

      Map<String, Long> epochs0 = epochs(stack);
      int notified0 = notified(stack, pushed);
      long trace0 = stack.web.clock().traceNow();
      Instant wall0 = Instant.now();
      Thread.sleep(WINDOW.toMillis());
      Map<String, Long> epochs1 = epochs(stack);
      int notified1 = notified(stack, pushed);
      long trace1 = stack.web.clock().traceNow();

      Group push = group("pushed", stack, pushed, epochs0, epochs1, trace0, trace1);
      Group poll = group("polled", stack, polled, epochs0, epochs1, trace0, trace1);

      Reconciliation r = stack.awaitReconciled();
      Set<String> pushedDemoIds = Set.copyOf(pushed.values());
      Reconciliation rPushed =
          Reconciliation.of(
              only(stack.web.truth().servedCountBySource(), pushedDemoIds),
              only(stack.storedVersionsByDemoId(), pushedDemoIds));
      System.out.println(
          "push e2e reconciliation, pushed feeds: "
              + rPushed.line()
              + "; every source: "
              + r.line()
              + " ("
              + stack.web.truth().summary()
              + ")");
      assertThat(rPushed.exact()).as(rPushed.line()).isTrue();
      // Every source: nothing stored twice. (A fetch rolled back by a fault — e.g. the registry
      // timing out on a loaded machine — is fetched again, and a page version replaced meanwhile
      // was served but can never be stored: PipelineReconciliationIT's subject, not this test's.)
      assertThat(r.duplicates()).as(r.line()).isZero();

      // Every item the pushed feeds published in the window (but the last few seconds) was
      // fetched, hence stored (the reconciliation above).
      long margin = (long) (5 * webSettings.scale());
      List<String> unfetched = new ArrayList<>();
      for (String demoId : pushed.values()) {
        for (GroundTruth.Entry e : stack.web.truth().entries(stack.web.catalog().get(demoId))) {
          long at = e.version().publishedTrace();
          if (at >= trace0 && at <= trace1 - margin && e.servedAt() == null) {
            unfetched.add(e.version().key());
          }
        }
      }

      // The misbehaving hubs, as the subscriber sees them: a denial is recorded and never live,
      // an unverified request never live, and a wrongly signed notification never a fetch.
      String denied = misbehaving.get(DemoHub.Variant.DENIES);
      String silent = misbehaving.get(DemoHub.Variant.SILENT);
      String badSignature = misbehaving.get(DemoHub.Variant.BAD_SIGNATURE);
      System.out.printf(
          "push e2e misbehaving hubs: denies %s, silent %s, bad signature %s; receiver %s%n",
          subscriptionState(stack, denied),
          subscriptionState(stack, silent),
          subscriptionState(stack, badSignature),
          receiverNotificationMeters(stack));
      assertThat(subscriptionState(stack, denied)).isEqualTo("DENIED");
      assertThat(subscriptionState(stack, silent)).isEqualTo("REQUESTED");
      assertThat(live(stack, Set.of(denied, silent))).isZero();
      assertThat(pushReceivedAt(stack, badSignature)).as("a fetch from a bad signature").isNull();

      System.out.println(push.line(wall0, stack));
      System.out.println(poll.line(wall0, stack));
      System.out.println("push e2e: demo hub " + stack.web.hub().counts());
      System.out.println("push e2e: scheduler " + schedulerPushMeters(stack));
      assertThat(unfetched).as("pushed items never fetched").isEmpty();
      // The demo's traces are sparse (the busiest feeds publish a few items a trace day), so the
      // items in one window are too few to compare fetches per new item without noise (both are
      // printed above). A pushed feed is fetched once per notification and otherwise polled only
      // on the safety net: its fetches beyond the notifications the demo hub delivered in the
      // window, per feed, must be fewer than a polled feed's fetches (its cadence, at most 24 h
      // apart, so at least one in the window).
      int notifications = notified1 - notified0;
      double pushedPolls =
          (double) Math.max(0, push.fetches() - notifications) / push.sources().size();
      double polledFetches = (double) poll.fetches() / poll.sources().size();
      System.out.printf(
          Locale.ROOT,
          "push e2e: %d notifications delivered in the window; fetches beyond them per pushed feed"
              + " %.2f, fetches per polled feed %.2f%n",
          notifications,
          pushedPolls,
          polledFetches);
      assertThat(pushedPolls)
          .as("fetches beyond notifications per feed in the window, pushed vs polled")
          .isLessThan(polledFetches);
    }
  }

  record Group(
      String name, Map<String, String> sources, long fetches, long newItems, List<Long> delaysMs) {

    double fetchesPerItem() {
      return newItems == 0 ? Double.NaN : (double) fetches / newItems;
    }

    String line(Instant wall0, StackFixture stack) {
      return String.format(
          Locale.ROOT,
          "push e2e %s: %d feeds, %d fetches, %d new items, %.2f fetches per new item;"
              + " publish-to-served delay median %s, p95 %s (n=%d)",
          name,
          sources.size(),
          fetches,
          newItems,
          fetchesPerItem(),
          seconds(percentile(delaysMs, 0.5)),
          seconds(percentile(delaysMs, 0.95)),
          delaysMs.size());
    }
  }

  static Group group(
      String name,
      StackFixture stack,
      Map<String, String> sources,
      Map<String, Long> epochs0,
      Map<String, Long> epochs1,
      long trace0,
      long trace1) {
    long fetches = 0;
    long items = 0;
    List<Long> delays = new ArrayList<>();
    for (var e : sources.entrySet()) {
      fetches += epochs1.getOrDefault(e.getKey(), 0L) - epochs0.getOrDefault(e.getKey(), 0L);
      DemoSource s = stack.web.catalog().get(e.getValue());
      items += s.publishedCount(trace1) - s.publishedCount(trace0);
      for (GroundTruth.Entry t : stack.web.truth().entries(s)) {
        long at = t.version().publishedTrace();
        if (at >= trace0 && at <= trace1 && t.servedAt() != null) {
          delays.add(Duration.between(stack.web.clock().toWall(at), t.servedAt()).toMillis());
        }
      }
    }
    return new Group(name, sources, fetches, items, delays);
  }

  static Map<String, Integer> only(Map<String, Integer> counts, Set<String> ids) {
    Map<String, Integer> out = new HashMap<>();
    counts.forEach(
        (id, n) -> {
          if (ids.contains(id)) {
            out.put(id, n);
          }
        });
    return out;
  }

  static long percentile(List<Long> values, double p) {
    if (values.isEmpty()) {
      return -1;
    }
    List<Long> sorted = values.stream().sorted().toList();
    int i = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.clamp(i, 0, sorted.size() - 1));
  }

  static String seconds(long ms) {
    return ms < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }

  /** Notifications the demo hub delivered so far for the {@code sources} (by their demo ids). */
  static int notified(StackFixture stack, Map<String, String> sources) {
    return sources.values().stream()
        .mapToInt(demoId -> stack.web.hub().delivered(stack.web.catalog().get(demoId)))
        .sum();
  }

  /** How many of {@code ids} the scheduler holds push-live now. */
  static long live(StackFixture stack, Set<String> ids) throws Exception {
    return epochsOr(stack, "push_live_until > now()").keySet().stream()
        .filter(ids::contains)
        .count();
  }

  /** Claims (one fetch request each) per scheduler source id so far. */
  static Map<String, Long> epochs(StackFixture stack) throws Exception {
    return epochsOr(stack, "true");
  }

  private static Map<String, Long> epochsOr(StackFixture stack, String where) throws Exception {
    Map<String, Long> out = new HashMap<>();
    try (Connection c = stack.connect();
        var st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT id::text, epoch FROM scheduler.sources WHERE " + where)) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2));
      }
    }
    return out;
  }

  /** The push-receiver's latest subscription state of a source, or null. */
  static String subscriptionState(StackFixture stack, String sourceId) throws Exception {
    try (Connection c = stack.connect();
        var st =
            c.prepareStatement(
                "SELECT state FROM push.subscriptions WHERE source_id = ?"
                    + " ORDER BY created_at DESC LIMIT 1")) {
      st.setString(1, sourceId);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  static Instant pushReceivedAt(StackFixture stack, String sourceId) throws Exception {
    try (Connection c = stack.connect();
        var st =
            c.prepareStatement(
                "SELECT push_received_at FROM scheduler.sources WHERE id = ?::uuid")) {
      st.setString(1, sourceId);
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        var t = rs.getTimestamp(1);
        return t == null ? null : t.toInstant();
      }
    }
  }

  static String receiverNotificationMeters(StackFixture stack) {
    return meters(
        stack.services.managementPort(stack.settings.pushPort()), "freshet_push_notifications");
  }

  /** The scheduler's push meters, as Prometheus scrapes them (on its management port). */
  static String schedulerPushMeters(StackFixture stack) {
    return meters(
        stack.services.managementPort(stack.settings.schedulerPort()), "freshet_scheduler_push");
  }

  static String meters(int port, String prefix) {
    try {
      var response =
          StackFixture.HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response
          .body()
          .lines()
          .filter(l -> l.startsWith(prefix))
          .collect(Collectors.joining("; "));
    } catch (Exception e) {
      return "unavailable: " + e;
    }
  }
}
