package io.freshet.scheduler.metrics;

import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Gauges of the schedule's state, refreshed from the database every {@code gauge-refresh} (cheap:
 * the due and lease indexes answer them): the due backlog, the oldest overdue source's age and the
 * leases in flight.
 */
@Component
public class ScheduleGauges {

  private final JdbcClient jdbc;
  private final ScheduleRepository schedule;
  private final Clock clock;
  private final AtomicLong dueBacklog = new AtomicLong();
  private final AtomicLong oldestOverdueSeconds = new AtomicLong();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong notFound = new AtomicLong();
  private final AtomicLong gone = new AtomicLong();
  private final String notFoundSql;

  ScheduleGauges(
      JdbcClient jdbc,
      ScheduleRepository schedule,
      Clock clock,
      MeterRegistry meters,
      SchedulerProperties props) {
    this.jdbc = jdbc;
    // The threshold is inlined (a setting, an int): the failing-sources index then answers it.
    this.notFoundSql =
        "SELECT count(*) FROM scheduler.sources WHERE enabled AND consecutive_misses >= "
            + props.web().notFoundMisses()
            + " AND consecutive_misses > 0 AND last_error LIKE 'http_4xx: HTTP 404 %'";
    Gauge.builder("freshet.scheduler.sources.not.found", notFound, AtomicLong::get)
        .description(
            "Enabled sources whose last fetches in a row (freshet.scheduler.web.not-found-misses"
                + " or more) answered 404: they wait the ceiling between tries")
        .register(meters);
    Gauge.builder("freshet.scheduler.sources.gone", gone, AtomicLong::get)
        .description("Sources the scheduler disabled because they answered 410 Gone")
        .register(meters);
    this.schedule = schedule;
    this.clock = clock;
    Gauge.builder("freshet.scheduler.due.backlog", dueBacklog, AtomicLong::get)
        .description("Enabled sources due now and not yet claimed")
        .register(meters);
    Gauge.builder("freshet.scheduler.oldest.overdue.seconds", oldestOverdueSeconds, AtomicLong::get)
        .description("How long the longest-waiting due source has been due")
        .baseUnit("seconds")
        .register(meters);
    Gauge.builder("freshet.scheduler.leases.in.flight", inFlight, AtomicLong::get)
        .description("Claimed sources whose outcome has not arrived and whose lease is running")
        .register(meters);
  }

  // The due set's size and oldest due time, read from the claim's index (priority, next_due_at)
  // WHERE enabled one priority at a time, as the claim reads it: the cost follows the due set, not
  // the table, without an index of its own that every claim and outcome would have to update (V11).
  private static final String DUE_BACKLOG =
      ScheduleRepository.PRIORITY_LEVELS
          + """
      SELECT coalesce(sum(d.n), 0) AS n, min(d.oldest) AS oldest
      FROM levels CROSS JOIN LATERAL (
        SELECT count(*) AS n, min(next_due_at) AS oldest
        FROM scheduler.sources
        WHERE enabled AND priority = levels.priority AND next_due_at <= :now
      ) d
      WHERE levels.priority IS NOT NULL
      """;

  /**
   * Re-reads the gauges (every {@code gauge-refresh}, see {@code BackgroundJobs}); when it fails
   * the gauges keep their last values.
   */
  public void refresh() {
    Timestamp now = Timestamp.from(clock.instant());
    jdbc.sql(DUE_BACKLOG)
        .param("now", now)
        .query(
            (rs, i) -> {
              dueBacklog.set(rs.getLong("n"));
              Timestamp oldest = rs.getTimestamp("oldest");
              oldestOverdueSeconds.set(
                  oldest == null ? 0 : Math.max(0, (now.getTime() - oldest.getTime()) / 1000));
              return 0;
            })
        .single();
    inFlight.set(schedule.inFlight(now.toInstant()));
    notFound.set(jdbc.sql(notFoundSql).query(Long.class).single());
    gone.set(
        jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE disabled_reason = 'gone'")
            .query(Long.class)
            .single());
  }
}
