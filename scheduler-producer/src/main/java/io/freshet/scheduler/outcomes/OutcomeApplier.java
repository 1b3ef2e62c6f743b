package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.OutcomeRules;
import io.freshet.scheduler.schedule.PushRules;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.scheduler.schedule.ServerRules;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.PoisonRecordException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies one {@code FetchCompleted} to its source in one transaction: locks the row, asks {@link
 * OutcomeRules} what the outcome does to it, stores that. A redelivered, duplicate or stale outcome
 * changes nothing.
 *
 * <p>The new or changed items of an applied outcome are counted by what asked for the fetch ({@code
 * freshet.scheduler.items.new}, {@code trigger}: {@code push} when a WebSub notification did,
 * {@code manual} for the API's fetch-now, {@code poll} otherwise), so that what push brings can be
 * told from what polling finds.
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
  private final ServerRules rules;
  private final MeterRegistry meters;
  private final PushRules push;

  OutcomeApplier(
      ScheduleRepository schedule,
      NextDue nextDue,
      TransactionTemplate tx,
      Clock clock,
      SchedulerProperties props,
      PushRules push,
      MeterRegistry meters) {
    this.schedule = schedule;
    this.nextDue = nextDue;
    this.tx = tx;
    this.clock = clock;
    this.rules = props.web().rules();
    this.meters = meters;
    this.push = push;
  }

  /**
   * @throws PoisonRecordException when the event cannot belong to any source (malformed id) or has
   *     a status this build does not know: such a record goes to the DLQ
   */
  public Result apply(FetchCompleted event) {
    UUID id = parseId(event.getSourceId());
    Applied applied = tx.execute(status -> applyLocked(id, event));
    if (applied.apply() != null) {
      count(event, applied.apply()); // after the commit: a rolled-back attempt counts nothing
      int newItems = PushRules.newItems(event);
      if (newItems > 0) {
        meters
            .counter("freshet.scheduler.items.new", "trigger", applied.trigger())
            .increment(newItems);
      }
    }
    if (applied.push() instanceof PushRules.Relaxed relaxed && relaxed.saved()) {
      meters.counter("freshet.scheduler.push.polls.relaxed").increment();
    } else if (applied.push() instanceof PushRules.Returned returned) {
      meters.counter("freshet.scheduler.push.returned", "reason", returned.reason()).increment();
    }
    return applied.result();
  }

  /**
   * @param trigger what asked for the fetch ({@link ScheduleRepository.Locked#trigger}); null
   *     unless applied
   */
  private record Applied(
      Result result, OutcomeRules.Apply apply, PushRules.Verdict push, String trigger) {}

  private Applied applyLocked(UUID id, FetchCompleted event) {
    var found = schedule.lockWithPush(id);
    if (found.isEmpty()) {
      return new Applied(Result.UNKNOWN_SOURCE, null, null, null);
    }
    ScheduleRow row = found.get().row();
    Instant now = clock.instant();
    return switch (OutcomeRules.decide(row, event, now, nextDue::afterOutcome, rules)) {
      case OutcomeRules.Stale stale -> new Applied(Result.STALE, null, null, null);
      case OutcomeRules.Apply decided -> {
        // While push is live, a successful poll is only a safety net (ADR 0015).
        PushRules.Verdict verdict = push.afterOutcome(row, found.get().push(), event, decided, now);
        OutcomeRules.Apply apply =
            verdict instanceof PushRules.Relaxed relaxed ? relaxed.apply() : decided;
        schedule.applyOutcome(id, apply, now);
        if (verdict instanceof PushRules.Returned) {
          schedule.clearPushLive(id, now);
        }
        yield new Applied(Result.APPLIED, apply, verdict, found.get().trigger());
      }
    };
  }

  private void count(FetchCompleted event, OutcomeRules.Apply apply) {
    if (apply.heldBy() != null) {
      meters.counter("freshet.scheduler.hints.held", "hint", apply.heldBy()).increment();
    }
    if (apply.move() != null) {
      meters.counter("freshet.scheduler.sources.moved").increment();
    }
    if (apply.disabledReason() != null) {
      meters
          .counter("freshet.scheduler.sources.disabled", "reason", apply.disabledReason())
          .increment();
    }
    if (event.getStatus() == FetchStatus.expired
        && "host_cooling_down".equals(event.getErrorKind())) {
      meters
          .counter("freshet.scheduler.fetches.deferred", "reason", "host_cooling_down")
          .increment();
    }
  }

  static UUID parseId(String sourceId) {
    try {
      return UUID.fromString(sourceId);
    } catch (IllegalArgumentException e) {
      throw new PoisonRecordException("source_id '" + sourceId + "' is not a UUID", e);
    }
  }
}
