package io.freshet.scheduler.metrics;

import io.freshet.scheduler.claims.DueSourceClaimer;
import io.freshet.scheduler.support.OutageLog;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Gauges of the schedule's state, refreshed from the database every 15 s (cheap: the due and lease
 * indexes answer them): the due backlog, the oldest overdue source's age and the leases in flight.
 */
@Component
public class ScheduleGauges {

  private final JdbcClient jdbc;
  private final DueSourceClaimer claimer;
  private final Clock clock;
  private final AtomicLong dueBacklog = new AtomicLong();
  private final AtomicLong oldestOverdueSeconds = new AtomicLong();
  private final AtomicLong inFlight = new AtomicLong();
  private final OutageLog outage;

  ScheduleGauges(JdbcClient jdbc, DueSourceClaimer claimer, Clock clock, MeterRegistry meters) {
    this.jdbc = jdbc;
    this.claimer = claimer;
    this.clock = clock;
    this.outage =
        new OutageLog(
            LoggerFactory.getLogger(ScheduleGauges.class),
            "schedule gauges",
            clock,
            Duration.ofMinutes(5));
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

  @Scheduled(fixedDelayString = "${freshet.scheduler.gauge-refresh:15s}", initialDelay = 5_000)
  public void refresh() {
    try {
      read();
      outage.succeeded();
    } catch (RuntimeException e) {
      outage.failed(e); // the gauges keep their last values meanwhile
    }
  }

  private void read() {
    Timestamp now = Timestamp.from(clock.instant());
    jdbc.sql(
            "SELECT count(*) AS n, min(next_due_at) AS oldest FROM scheduler.sources"
                + " WHERE enabled AND next_due_at <= :now")
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
    inFlight.set(claimer.inFlight(now.toInstant()));
  }
}
