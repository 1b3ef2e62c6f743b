package io.freshet.scheduler.schedule;

import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Recomputes a source's due time from its row. A source with a fetch in flight is left alone: its
 * outcome will schedule it. A pending manual request keeps it due now.
 */
@Component
class DefaultRescheduler implements Rescheduler {

  private final ScheduleRepository rows;
  private final NextDue nextDue;
  private final TransactionTemplate tx;
  private final Clock clock;

  DefaultRescheduler(
      ScheduleRepository rows, NextDue nextDue, TransactionTemplate tx, Clock clock) {
    this.rows = rows;
    this.nextDue = nextDue;
    this.tx = tx;
    this.clock = clock;
  }

  @Override
  public void reschedule(UUID sourceId) {
    tx.executeWithoutResult(status -> rescheduleLocked(sourceId));
  }

  /** The same, inside the caller's transaction. */
  void rescheduleLocked(UUID sourceId) {
    Instant now = clock.instant();
    rows.lock(sourceId)
        .filter(row -> row.leaseUntil() == null || !row.leaseUntil().isAfter(now))
        .ifPresent(
            row -> {
              Instant due = row.manualRequested() ? now : nextDue.recompute(row, now);
              rows.setNextDue(row.id(), due, now);
            });
  }
}
