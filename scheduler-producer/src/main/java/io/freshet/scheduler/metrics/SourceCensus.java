package io.freshet.scheduler.metrics;

import io.freshet.scheduler.schedule.CadenceTimeScale;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.RowCallbackHandler;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A census of every source, as gauges, re-counted every {@code census-refresh} (a scan of the
 * sources table, so slower than the index-answered {@link ScheduleGauges}): sources by state,
 * failing sources by last status and the hosts they are on, and the distribution of the current
 * intervals ({@code next_due_at − last_fetch_at} of sources that are not failing) in the cadence
 * model's time, over the cadence's own 15 min – 24 h range. The local stack's live figures and
 * dashboards read these instead of the scheduler's tables.
 */
@Component
public class SourceCensus {

  /** The interval buckets' tags, by the limits (model seconds) 900, 3,600, 21,600, 86,400. */
  static final List<String> BUCKETS = List.of("lt_15m", "15m_1h", "1h_6h", "6h_24h", "ge_24h");

  private static final List<String> STATES =
      List.of("enabled", "disabled", "never_fetched", "failing");

  private final JdbcClient jdbc;
  private final MeterRegistry meters;
  private final double scale;
  private final Map<String, AtomicLong> byState = new HashMap<>();
  private final Map<String, AtomicLong> byInterval = new HashMap<>();
  private final Map<String, AtomicLong> failingByStatus = new ConcurrentHashMap<>();
  private final AtomicLong failingHosts = new AtomicLong();

  SourceCensus(JdbcClient jdbc, MeterRegistry meters, CadenceTimeScale time) {
    this.jdbc = jdbc;
    this.meters = meters;
    this.scale = time.scale();
    // Each gauge is built with its name written out: the catalogue check (MonitoringTest) reads
    // the meters from the code.
    for (String state : STATES) {
      AtomicLong value = byState.computeIfAbsent(state, k -> new AtomicLong());
      Gauge.builder("freshet.scheduler.sources", value, AtomicLong::get)
          .tag("state", state)
          .description(
              "Sources by state: enabled, disabled, never_fetched (enabled, no outcome yet),"
                  + " failing (enabled, last fetches in a row failed)")
          .register(meters);
    }
    for (String bucket : BUCKETS) {
      AtomicLong value = byInterval.computeIfAbsent(bucket, k -> new AtomicLong());
      Gauge.builder("freshet.scheduler.sources.interval", value, AtomicLong::get)
          .tag("bucket", bucket)
          .description(
              "Enabled, not failing sources by current interval (next due - last fetch) in the"
                  + " cadence model's time")
          .register(meters);
    }
    Gauge.builder("freshet.scheduler.failing.hosts", failingHosts, AtomicLong::get)
        .description("Hosts with at least one failing enabled source")
        .register(meters);
  }

  /** Re-counts every gauge; when it fails the gauges keep their last values. */
  public void refresh() {
    jdbc.sql(
            """
            SELECT count(*) FILTER (WHERE enabled) AS enabled,
                   count(*) FILTER (WHERE NOT enabled) AS disabled,
                   count(*) FILTER (WHERE enabled AND last_outcome_at IS NULL) AS never_fetched,
                   count(*) FILTER (WHERE enabled AND consecutive_misses > 0) AS failing,
                   count(DISTINCT host) FILTER (WHERE enabled AND consecutive_misses > 0) AS hosts
            FROM scheduler.sources""")
        .query(
            (rs, i) -> {
              for (String state : STATES) {
                byState.get(state).set(rs.getLong(state));
              }
              failingHosts.set(rs.getLong("hosts"));
              return 0;
            })
        .single();
    Map<String, Long> intervals = new HashMap<>();
    jdbc.sql(
            """
            SELECT width_bucket(
                     extract(epoch FROM next_due_at - (cursor_json->>'last_fetch_at')::timestamptz)
                       ::float8 * :scale,
                     ARRAY[900, 3600, 21600, 86400]::float8[]) AS bucket,
                   count(*) AS n
            FROM scheduler.sources
            WHERE enabled AND consecutive_misses = 0 AND cursor_json->>'last_fetch_at' IS NOT NULL
            GROUP BY 1""")
        .param("scale", scale)
        .query(
            (RowCallbackHandler)
                rs -> intervals.put(BUCKETS.get(rs.getInt("bucket")), rs.getLong("n")));
    BUCKETS.forEach(b -> byInterval.get(b).set(intervals.getOrDefault(b, 0L)));
    Map<String, Long> failing = new HashMap<>();
    jdbc.sql(
            """
            SELECT coalesce(last_status, 'unknown') AS status, count(*) AS n
            FROM scheduler.sources WHERE enabled AND consecutive_misses > 0 GROUP BY 1""")
        .query((RowCallbackHandler) rs -> failing.put(rs.getString("status"), rs.getLong("n")));
    failingByStatus.forEach((status, gauge) -> gauge.set(failing.getOrDefault(status, 0L)));
    failing.forEach((status, n) -> gauge(status).set(n));
  }

  /** The gauge of failing sources whose last status is {@code status}: few, the fetch statuses. */
  private AtomicLong gauge(String status) {
    return failingByStatus.computeIfAbsent(
        status,
        s -> {
          AtomicLong value = new AtomicLong();
          Gauge.builder("freshet.scheduler.sources.failing", value, AtomicLong::get)
              .tag("last_status", s)
              .description("Failing enabled sources by the status of their last fetch")
              .register(meters);
          return value;
        });
  }
}
