package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.source.Outcome;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.scheduler.testing.Settings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The global fetch budget compresses cadences when the wanted rate exceeds it. */
class BudgetPlannerIT extends SchedulerItSupport {

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";

  @Autowired CadenceEngine engine;
  @Autowired SchedulerProperties props;

  @Test
  void aBudgetBelowTheWantedRateStretchesEveryIntervalToFitIt() {
    for (int i = 0; i < 100; i++) {
      source().config(HOURLY).insert(); // 100 sources wanting one fetch an hour: 100 fetches/h
    }
    var planner = new BudgetPlanner(jdbc, engine, withBudget(25), Clock.systemUTC());

    planner.replan();

    assertThat(planner.current().compression()).isCloseTo(4.0, within(0.05));
    ScheduleRow row = anyRow();
    Instant at = Instant.parse("2026-11-22T10:00:00Z");
    Instant next =
        new NextDue(engine, planner, CadenceTimeScale.identity())
            .afterOutcome(row, new Outcome.Success(at), at);
    assertThat(Duration.between(at, next))
        .isBetween(Duration.ofMinutes(235), Duration.ofMinutes(245));
  }

  @Test
  void aBudgetAboveTheWantedRateChangesNothing() {
    for (int i = 0; i < 10; i++) {
      source().config(HOURLY).insert();
    }
    var planner = new BudgetPlanner(jdbc, engine, withBudget(1000), Clock.systemUTC());

    planner.replan();

    assertThat(planner.current()).isEqualTo(BudgetPlan.NONE);
  }

  @Test
  void noBudgetMeansNoPlan() {
    source().config(HOURLY).insert();
    var planner = new BudgetPlanner(jdbc, engine, withBudget(0), Clock.systemUTC());

    planner.replan();

    assertThat(planner.current()).isEqualTo(BudgetPlan.NONE);
  }

  private ScheduleRow anyRow() {
    UUID id = jdbc.sql("SELECT id FROM scheduler.sources LIMIT 1").query(UUID.class).single();
    return jdbc.sql(
            "SELECT "
                + ScheduleRow.COLUMNS
                + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id WHERE s.id = :id")
        .param("id", id)
        .query(ScheduleRow::map)
        .single();
  }

  private SchedulerProperties withBudget(double perHour) {
    return Settings.from(props).budgetPerHour(perHour).sendTimeout(props.sendTimeout()).build();
  }
}
