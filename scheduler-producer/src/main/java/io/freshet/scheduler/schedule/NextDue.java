package io.freshet.scheduler.schedule;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.config.InvalidCadenceException;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The scheduler's one door to the cadence module: every question about a source's timing — when
 * next after an outcome, when next after its row changed, is it due at a batch run's window end —
 * is asked here with the row, and answered with the current budget plan. No caller parses a cadence
 * itself. A row whose stored cadence no longer parses (edited by hand) falls back to the deployment
 * default and says so in the log, on every path alike, rather than never being scheduled again.
 */
@Component
public class NextDue {

  private static final Logger log = LoggerFactory.getLogger(NextDue.class);

  private final CadenceEngine engine;
  private final BudgetPlanner budget;
  private final CadenceTimeScale time;

  public NextDue(CadenceEngine engine, BudgetPlanner budget, CadenceTimeScale time) {
    this.engine = engine;
    this.budget = budget;
    this.time = time;
  }

  /**
   * After a fetch outcome. On a scaled cadence clock ({@link CadenceTimeScale}), a success or 304
   * is scheduled in model time; a failure's back-off stays in wall time, so that a failing host is
   * not retried {@code scale} times sooner.
   */
  public Instant afterOutcome(ScheduleRow row, Outcome outcome, Instant now) {
    SourceSnapshot snapshot = SnapshotMapper.snapshot(row);
    if (outcome instanceof Outcome.Failure) {
      return engine.nextDueAt(spec(row), snapshot, outcome, now, budget.current());
    }
    return inModelTime(spec(row), snapshot, outcome, now);
  }

  private Instant inModelTime(
      CadenceSpec spec, SourceSnapshot snapshot, Outcome outcome, Instant now) {
    return time.toWall(
        engine.nextDueAt(
            spec,
            time.toModel(snapshot),
            time.toModel(outcome),
            time.toModel(now),
            budget.current()));
  }

  /**
   * When nothing was fetched but the row changed (stats, config, re-enabled). Failures that are
   * backing off keep their stored due time, and a {@code Retry-After} still ahead is a floor, for
   * every source — also one never fetched successfully, which would otherwise be due at once and
   * hammered by every stats update. Otherwise: due now if never fetched; after a success at {@code
   * last_fetch_at}.
   */
  public Instant recompute(ScheduleRow row, Instant now) {
    SourceSnapshot snapshot = SnapshotMapper.snapshot(row);
    Instant due;
    if (snapshot.consecutiveMisses() > 0 && row.nextDueAt() != null) {
      due = row.nextDueAt();
    } else if (snapshot.lastFetchAt() == null) {
      due = now;
    } else {
      due = inModelTime(spec(row), snapshot, new Outcome.Success(snapshot.lastFetchAt()), now);
    }
    Instant retryAfter = snapshot.retryAfter();
    return retryAfter != null && retryAfter.isAfter(due) ? retryAfter : due;
  }

  /**
   * Whether the row is due at a batch run's {@code windowEnd} (the rule of ADR 0006
   * (docs/adr/0006-per-source-cadence-and-the-due-rule.md) for its mode). Batch runs are an
   * operator's explicit window in wall time: not scaled.
   */
  public boolean isDueAt(ScheduleRow row, Instant windowEnd) {
    return engine.isDue(spec(row), SnapshotMapper.snapshot(row), windowEnd);
  }

  CadenceSpec spec(ScheduleRow row) {
    return specOf(engine, row);
  }

  /** The row's cadence, or the deployment default if the stored one no longer parses. */
  static CadenceSpec specOf(CadenceEngine engine, ScheduleRow row) {
    try {
      return engine.parser().parseConfigJson(row.configJson());
    } catch (InvalidCadenceException e) {
      log.warn(
          "source {}: stored cadence is invalid ({}); using the default", row.id(), e.getMessage());
      return engine.defaults().defaultSpec();
    }
  }
}
