package io.freshet.scheduler.outcomes;

import io.freshet.kit.kafka.Failures;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.OutcomeRules;
import io.freshet.scheduler.schedule.PushRules;
import io.freshet.scheduler.schedule.ScheduleBatches;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.scheduler.schedule.ServerRules;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.PoisonRecordException;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies {@code FetchCompleted} outcomes to their sources, a poll at a time in one transaction:
 * locks the poll's rows with one statement, asks {@link OutcomeRules} what each outcome does to its
 * row, in the poll's order, and stores every change with one statement ({@link ScheduleBatches}). A
 * redelivered, duplicate or stale outcome changes nothing. Several outcomes of one source are
 * decided in order, each against the row as the one before left it.
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

  private final ScheduleBatches schedule;
  private final NextDue nextDue;
  private final TransactionTemplate tx;
  private final Clock clock;
  private final ServerRules rules;
  private final MeterRegistry meters;
  private final PushRules push;

  OutcomeApplier(
      ScheduleBatches schedule,
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
   * Applies one outcome in its own transaction.
   *
   * @throws PoisonRecordException when the event cannot belong to any source (malformed id) or has
   *     a status this build does not know: such a record goes to the DLQ
   */
  public Result apply(FetchCompleted event) {
    return applyAll(List.of(event)).getFirst().orThrow();
  }

  /**
   * Applies a poll's outcomes in one transaction. A record that cannot belong to any source, has a
   * status this build does not know or fails its decision otherwise is poison: its verdict says so,
   * and the others are applied. An outage (or a statement the database refuses) throws, and nothing
   * is stored.
   *
   * @return the verdict of each event, in order
   */
  public List<Verdict<Result>> applyAll(List<FetchCompleted> events) {
    int n = events.size();
    List<Verdict<Result>> verdicts = new ArrayList<>(Collections.nCopies(n, null));
    Decided[] decided = new Decided[n];
    UUID[] ids = new UUID[n];
    for (int i = 0; i < n; i++) {
      try {
        ids[i] = parseId(events.get(i).getSourceId());
      } catch (PoisonRecordException e) {
        verdicts.set(i, Verdict.poison(e));
      }
    }
    tx.executeWithoutResult(status -> applyLocked(events, ids, verdicts, decided));
    for (int i = 0; i < n; i++) { // after the commit: a rolled-back attempt counts nothing
      if (decided[i] != null) {
        count(events.get(i), decided[i]);
      }
    }
    return verdicts;
  }

  /**
   * An applied outcome and what push did to it.
   *
   * @param trigger what asked for the fetch ({@link ScheduleRepository.Locked#trigger})
   */
  private record Decided(OutcomeRules.Apply apply, PushRules.Verdict push, String trigger) {}

  private void applyLocked(
      List<FetchCompleted> events, UUID[] ids, List<Verdict<Result>> verdicts, Decided[] decided) {
    Instant now = clock.instant();
    Map<UUID, ArrayDeque<Integer>> pending = new LinkedHashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (ids[i] != null) {
        pending.computeIfAbsent(ids[i], k -> new ArrayDeque<>()).add(i);
      }
    }
    Map<UUID, ScheduleRepository.Locked> rows = schedule.lockWithPush(pending.keySet());
    // Each pass decides, per source, its outcomes in order up to the first one that changes the
    // row; the pass's changes are stored together, and a source with outcomes left is read again,
    // so its next outcome sees what the previous one did. Usually one pass.
    while (!pending.isEmpty()) {
      List<ScheduleBatches.OutcomeWrite> writes = new ArrayList<>();
      for (var it = pending.entrySet().iterator(); it.hasNext(); ) {
        var entry = it.next();
        ScheduleRepository.Locked locked = rows.get(entry.getKey());
        ArrayDeque<Integer> queue = entry.getValue();
        while (!queue.isEmpty()) {
          int i = queue.poll();
          if (locked == null) {
            verdicts.set(i, Verdict.of(Result.UNKNOWN_SOURCE));
            continue;
          }
          Decided d;
          try {
            d = decide(locked, events.get(i), now);
          } catch (RuntimeException e) {
            if (Failures.isOutage(e)) {
              throw e;
            }
            verdicts.set(i, Verdict.poison(e)); // changes nothing: the next outcome is decided
            continue;
          }
          if (d == null) {
            verdicts.set(i, Verdict.of(Result.STALE));
            continue;
          }
          verdicts.set(i, Verdict.of(Result.APPLIED));
          decided[i] = d;
          writes.add(
              new ScheduleBatches.OutcomeWrite(
                  entry.getKey(), d.apply(), d.push() instanceof PushRules.Returned));
          break;
        }
        if (queue.isEmpty()) {
          it.remove();
        }
      }
      schedule.applyOutcomes(writes, now);
      if (!pending.isEmpty()) {
        rows = schedule.lockWithPush(pending.keySet());
      }
    }
  }

  /** What the outcome does to the locked row; null when it is stale. */
  private Decided decide(ScheduleRepository.Locked locked, FetchCompleted event, Instant now) {
    ScheduleRow row = locked.row();
    return switch (OutcomeRules.decide(row, event, now, nextDue::afterOutcome, rules)) {
      case OutcomeRules.Stale stale -> null;
      case OutcomeRules.Apply decided -> {
        // While push is live, a successful poll is only a safety net (ADR 0015).
        PushRules.Verdict verdict = push.afterOutcome(row, locked.push(), event, decided, now);
        yield new Decided(
            verdict instanceof PushRules.Relaxed relaxed ? relaxed.apply() : decided,
            verdict,
            locked.trigger());
      }
    };
  }

  private void count(FetchCompleted event, Decided decided) {
    OutcomeRules.Apply apply = decided.apply();
    if (decided.push() instanceof PushRules.Relaxed relaxed && relaxed.saved()) {
      meters.counter("freshet.scheduler.push.polls.relaxed").increment();
    } else if (decided.push() instanceof PushRules.Returned returned) {
      meters.counter("freshet.scheduler.push.returned", "reason", returned.reason()).increment();
    }
    int newItems = PushRules.newItems(event);
    if (newItems > 0) {
      meters
          .counter("freshet.scheduler.items.new", "trigger", decided.trigger())
          .increment(newItems);
    }
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
