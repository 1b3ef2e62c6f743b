package io.freshet.stack.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The live figures from the services' scrapes: gauges as they are, counters as rates. */
class ProgressTest {

  static final String SCHEDULER =
      """
      # HELP freshet_scheduler_sources Sources by state
      # TYPE freshet_scheduler_sources gauge
      freshet_scheduler_sources{state="enabled"} 990.0
      freshet_scheduler_sources{state="disabled"} 10.0
      freshet_scheduler_sources{state="never_fetched"} 5.0
      freshet_scheduler_sources{state="failing"} 3.0
      freshet_scheduler_due_backlog 7.0
      freshet_scheduler_leases_in_flight 12.0
      freshet_scheduler_failing_hosts 2.0
      freshet_scheduler_sources_failing{last_status="failed"} 3.0
      freshet_scheduler_sources_failing{last_status="expired"} 0.0
      freshet_scheduler_sources_interval{bucket="lt_15m"} 100.0
      freshet_scheduler_sources_interval{bucket="15m_1h"} 50.0
      freshet_scheduler_sources_interval{bucket="1h_6h"} 0.0
      freshet_scheduler_sources_interval{bucket="6h_24h"} 400.0
      freshet_scheduler_sources_interval{bucket="ge_24h"} 437.0
      """;

  static String worker(double ok, double notModified, double added, double timeouts) {
    return """
        freshet_worker_fetches_total{connector="feed",status="ok"} %s
        freshet_worker_fetches_total{connector="html",status="ok"} 0.0
        freshet_worker_fetches_total{connector="feed",status="not_modified"} %s
        freshet_worker_items_total{novelty="added"} %s
        freshet_worker_failures_total{error_kind="timeout"} %s
        freshet_worker_hosts_cooling_down 1.0
        freshet_worker_fetch_duration_seconds_bucket{connector="feed",le="0.1"} 3.0
        """
        .formatted(ok, notModified, added, timeouts);
  }

  static String sink(double inserted) {
    return "freshet_sink_rows_inserted_total "
        + inserted
        + "\nfreshet_sink_rows_versions_total 0.0\n";
  }

  @Test
  void aFirstReadShowsGaugesAndCountersSinceStart() {
    var figures =
        Progress.figures(
            Map.of(
                Progress.SCHEDULER,
                PrometheusText.parse(SCHEDULER),
                Progress.WORKER,
                PrometheusText.parse(worker(100, 20, 300, 4)),
                Progress.SINK,
                PrometheusText.parse(sink(290))),
            null,
            0,
            1440);

    assertThat(figures.get("sources"))
        .isEqualTo(
            Map.of(
                "total", 1000L,
                "enabled", 990L,
                "disabled", 10L,
                "never_fetched", 5L,
                "failing", 3L,
                "due_backlog", 7L,
                "in_flight", 12L));
    assertThat(figures.get("fetches_since_start"))
        .isEqualTo(Map.of("ok", 100L, "not_modified", 20L));
    assertThat(figures.get("failing"))
        .isEqualTo(Map.of("sources", 3L, "hosts", 2L, "hosts_cooling_down", 1L, "last_failed", 3L));
    @SuppressWarnings("unchecked")
    var intervals = (Map<String, Object>) figures.get("current_intervals_model_time");
    assertThat(intervals)
        .containsEntry("<15m (wall <0.6s)", 100L)
        .containsEntry(">=24h (wall >=1min)", 437L)
        .hasSize(5);
    assertThat(figures).containsKey("cadence_clock");
  }

  @Test
  void countersBecomeRatesPerMinuteAndARestartedCounterCountsFromZero() {
    var before =
        Map.of(
            Progress.WORKER,
            PrometheusText.parse(worker(100, 20, 300, 4)),
            Progress.SINK,
            PrometheusText.parse(sink(500)));
    var now =
        Map.of(
            Progress.SCHEDULER,
            PrometheusText.parse(SCHEDULER),
            Progress.WORKER,
            PrometheusText.parse(worker(130, 20, 330, 5)),
            Progress.SINK,
            PrometheusText.parse(sink(12))); // the sink restarted

    var figures = Progress.figures(now, before, 30, 1);

    assertThat(figures.get("fetches_per_minute")).isEqualTo(Map.of("ok", 60L));
    assertThat(figures.get("items_per_minute")).isEqualTo(Map.of("added", 60L));
    assertThat(figures.get("errors_per_minute")).isEqualTo(Map.of("timeout", 2L));
    assertThat(figures.get("stored_per_minute"))
        .isEqualTo(Map.of("inserted", 24L, "versions", 0L, "duplicates", 0L));
    assertThat(figures).containsKey("current_intervals").doesNotContainKey("cadence_clock");
    assertThat(figures).doesNotContainKey("push"); // no push receiver scraped

    // a service unreachable at the read before shows no rate (not all it counted since start)
    var sinkBack =
        Progress.figures(now, Map.of(Progress.WORKER, before.get(Progress.WORKER)), 30, 1);
    assertThat(sinkBack.get("stored_per_minute"))
        .isEqualTo(Map.of("inserted", 0L, "versions", 0L, "duplicates", 0L));
    assertThat(sinkBack.get("fetches_per_minute")).isEqualTo(Map.of("ok", 60L));
  }

  @Test
  void thePushReceiversSubscriptionsAndNotificationsWhenItRuns() {
    String push =
        """
        freshet_push_subscriptions{state="active"} 107.0
        freshet_push_subscriptions{state="expired"} 0.0
        freshet_push_notifications_total{result="accepted"} %s
        freshet_push_notifications_total{result="coalesced"} 1.0
        """;
    var figures =
        Progress.figures(
            Map.of(Progress.PUSH, PrometheusText.parse(push.formatted("40.0"))),
            Map.of(Progress.PUSH, PrometheusText.parse(push.formatted("10.0"))),
            60,
            1);

    assertThat(figures.get("push"))
        .isEqualTo(Map.of("subscriptions_active", 107L, "notifications_accepted_per_minute", 30L));
  }

  @Test
  void newItemsByPushAndByPollFromTheSchedulersCounter() {
    String scheduler =
        SCHEDULER
            + """
            freshet_scheduler_items_new_total{trigger="push"} %s
            freshet_scheduler_items_new_total{trigger="poll"} %s
            """;
    String push = "freshet_push_notifications_total{result=\"accepted\"} %s\n";
    var first =
        Progress.figures(
            Map.of(
                Progress.SCHEDULER,
                PrometheusText.parse(scheduler.formatted("12.0", "30.0")),
                Progress.PUSH,
                PrometheusText.parse(push.formatted("14.0"))),
            null,
            0,
            1440);
    assertThat(first.get("push"))
        .isEqualTo(
            Map.of(
                "notifications_accepted_since_start", 14L,
                "new_items_by_push_since_start", 12L,
                "new_items_by_poll_since_start", 30L));

    var rates =
        Progress.figures(
            Map.of(Progress.SCHEDULER, PrometheusText.parse(scheduler.formatted("22.0", "31.0"))),
            Map.of(Progress.SCHEDULER, PrometheusText.parse(scheduler.formatted("12.0", "30.0"))),
            30,
            1440);
    // the push receiver not reached: the scheduler's counts still show
    assertThat(rates.get("push"))
        .isEqualTo(Map.of("new_items_by_push_per_minute", 20L, "new_items_by_poll_per_minute", 2L));
    assertThat(Progress.line(rates)).contains("new items by push per minute 20");
  }

  @Test
  void theScreenAlignsLabelsAndDrawsTheIntervalsAsBars() {
    var figures =
        Progress.figures(Map.of(Progress.SCHEDULER, PrometheusText.parse(SCHEDULER)), null, 0, 1);

    var screen = Progress.screen(figures);

    assertThat(screen.get(0)).startsWith("sources                  total 1,000 · enabled 990");
    assertThat(screen)
        .contains("  >=24h  ############################## 437")
        .contains("  1h-6h                                 0");
    assertThat(Progress.line(figures))
        .contains("sources: total 1,000")
        .contains(" | current intervals: <15m 100 · 15m-1h 50");
  }

  @Test
  void labelsWithEscapesAndUnreadableLinesAreHandled() {
    var text =
        PrometheusText.parse(
            """
            a{x="q\\"uo,te",y="b"} 2.5
            broken{x="1" 3
            b 1e3 1700000000000
            c NaN
            """);

    assertThat(text.by("a", "x")).isEqualTo(Map.of("q\"uo,te", 2.5));
    assertThat(text.sum("b")).isEqualTo(1000);
    assertThat(text.has("broken")).isFalse();
    assertThat(text.has("c")).isTrue();
  }
}
