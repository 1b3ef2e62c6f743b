package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.OutcomeRules;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.serde.PoisonRecordException;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies one {@code FetchCompleted} to its source in one transaction: locks the row, asks {@link
 * OutcomeRules} what the outcome does to it, stores that. A redelivered, duplicate or stale outcome
 * changes nothing.
 */
@Component
public class OutcomeApplier {

  /** What happened to an outcome. */
  public enum Result {
    APPLIED,
    STALE,
    UNKNOWN_SOURCE
  }

  private final ScheduleRepository schedule;
  private final NextDue nextDue;
  private final TransactionTemplate tx;
  private final Clock clock;

  OutcomeApplier(
      ScheduleRepository schedule, NextDue nextDue, TransactionTemplate tx, Clock clock) {
    this.schedule = schedule;
    this.nextDue = nextDue;
    this.tx = tx;
    this.clock = clock;
  }

  /**
   * @throws PoisonRecordException when the event cannot belong to any source (malformed id) or has
   *     a status this build does not know: such a record goes to the DLQ
   */
  public Result apply(FetchCompleted event) {
    UUID id = parseId(event.getSourceId());
    return tx.execute(status -> applyLocked(id, event));
  }

  private Result applyLocked(UUID id, FetchCompleted event) {
    var found = schedule.lock(id);
    if (found.isEmpty()) {
      return Result.UNKNOWN_SOURCE;
    }
    Instant now = clock.instant();
    return switch (OutcomeRules.decide(found.get(), event, now, nextDue::afterOutcome)) {
      case OutcomeRules.Stale stale -> Result.STALE;
      case OutcomeRules.Apply apply -> {
        schedule.applyOutcome(id, apply, now);
        yield Result.APPLIED;
      }
    };
  }

  static UUID parseId(String sourceId) {
    try {
      return UUID.fromString(sourceId);
    } catch (IllegalArgumentException e) {
      throw new PoisonRecordException("source_id '" + sourceId + "' is not a UUID", e);
    }
  }
}
