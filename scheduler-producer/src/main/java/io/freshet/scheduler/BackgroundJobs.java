package io.freshet.scheduler;

import io.freshet.kit.ops.OutageLog;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.metrics.ScheduleGauges;
import io.freshet.scheduler.metrics.SourceCensus;
import io.freshet.scheduler.schedule.BudgetPlanner;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;

/**
 * The periodic jobs, timed by {@link SchedulerProperties} (no {@code @Scheduled} placeholders
 * elsewhere): the schedule gauges every {@code gauge-refresh}, the budget plan every {@code
 * budget-replan-interval}, the source census every {@code census-refresh}. While the database is
 * down each job writes one line when its outage starts, a reminder now and then, and one when it
 * ends — not a stack trace per run, which would bury everything else in the log.
 *
 * <p>It sits beside {@link SchedulerApplication} (which enables scheduling), above the packages
 * whose jobs it runs: {@code config} only holds settings and infrastructure, which every other
 * package reads, so it must not depend on {@code schedule} or {@code metrics}.
 */
@Configuration(proxyBeanMethods = false)
class BackgroundJobs implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(BackgroundJobs.class);

  private final ScheduleGauges gauges;
  private final SourceCensus census;
  private final BudgetPlanner budget;
  private final SchedulerProperties props;
  private final Clock clock;

  BackgroundJobs(
      ScheduleGauges gauges,
      SourceCensus census,
      BudgetPlanner budget,
      SchedulerProperties props,
      Clock clock) {
    this.gauges = gauges;
    this.census = census;
    this.budget = budget;
    this.props = props;
    this.clock = clock;
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar registrar) {
    registrar.addFixedDelayTask(
        new FixedDelayTask(
            quietly(
                new OutageLog(log, "schedule gauges", clock, Duration.ofMinutes(5)),
                gauges::refresh),
            props.gaugeRefresh(),
            Duration.ofSeconds(5)));
    registrar.addFixedDelayTask(
        new FixedDelayTask(
            quietly(
                new OutageLog(log, "source census", clock, Duration.ofMinutes(5)), census::refresh),
            props.censusRefresh(),
            Duration.ofSeconds(5)));
    registrar.addFixedDelayTask(
        new FixedDelayTask(
            quietly(
                new OutageLog(log, "budget planner", clock, Duration.ofMinutes(30)),
                budget::replan),
            props.budgetReplanInterval(),
            props.budgetReplanInterval()));
  }

  /** {@code job}, with its failures reported through {@code outage} instead of thrown. */
  static Runnable quietly(OutageLog outage, Runnable job) {
    return () -> {
      try {
        job.run();
        outage.succeeded();
      } catch (RuntimeException e) {
        outage.failed(e);
      }
    };
  }
}
