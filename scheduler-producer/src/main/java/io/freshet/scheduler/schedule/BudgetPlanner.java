package io.freshet.scheduler.schedule;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.budget.BudgetMode;
import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.scheduler.config.SchedulerProperties;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/**
 * Keeps the global fetch budget's plan (an open question of the earlier note that ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md) restates: a global cost
 * ceiling that compresses cadences). Every {@code budget-replan-interval} it reads every enabled
 * source's demand and asks the cadence module for the plan — the optimal price for {@code adaptive}
 * sources, a proportional compression for the others. With no budget the plan is {@link
 * BudgetPlan#NONE}.
 */
@Component
public class BudgetPlanner {

  private static final Logger log = LoggerFactory.getLogger(BudgetPlanner.class);

  private final JdbcClient jdbc;
  private final CadenceEngine engine;
  private final SchedulerProperties props;
  private final Clock clock;
  private final AtomicReference<BudgetPlan> plan = new AtomicReference<>(BudgetPlan.NONE);

  public BudgetPlanner(
      JdbcClient jdbc, CadenceEngine engine, SchedulerProperties props, Clock clock) {
    this.jdbc = jdbc;
    this.engine = engine;
    this.props = props;
    this.clock = clock;
  }

  /** The plan in force. */
  public BudgetPlan current() {
    return plan.get();
  }

  /**
   * Recomputes the plan from all enabled sources (every {@code budget-replan-interval}, see {@code
   * BackgroundJobs}).
   */
  @Transactional(readOnly = true) // so the driver streams the rows instead of loading them all
  public void replan() {
    if (props.budgetPerHour() <= 0) {
      plan.set(BudgetPlan.NONE);
      return;
    }
    Instant now = clock.instant();
    List<Demand> demands = new ArrayList<>();
    try (Stream<ScheduleRow> rows =
        jdbc
            .sql(
                "SELECT "
                    + ScheduleRow.COLUMNS
                    + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
                    + " WHERE s.enabled")
            .withFetchSize(1000)
            .query(ScheduleRow::map)
            .stream()) {
      rows.forEach(
          row ->
              demands.add(
                  engine.demand(NextDue.specOf(engine, row), SnapshotMapper.snapshot(row), now)));
    }
    BudgetPlan next = engine.planBudget(demands, props.budgetPerHour(), BudgetMode.CAP);
    plan.set(next);
    log.info("budget plan for {} sources at {}/h: {}", demands.size(), props.budgetPerHour(), next);
  }
}
