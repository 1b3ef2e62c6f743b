package io.freshet.scheduler.outcomes;

import io.freshet.cadence.source.Outcome;
import io.freshet.scheduler.config.PoisonRecordException;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.scheduler.schedule.ScheduleRows;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applies one {@code FetchCompleted} to its source, in one transaction, only if it answers the
 * source's current claim (same epoch, lease not yet released): a redelivered, duplicate or stale
 * outcome changes nothing. Per status (DESIGN.md, Scheduling → Outcome):
 *
 * <ul>
 *   <li>{@code ok}/{@code partial}: the new cursor, {@code last_fetch_at} = fetch time, misses
 *       reset;
 *   <li>{@code not_modified}: {@code last_fetch_at} moves, the cursor stays (adaptive spec: a 304
 *       reschedules too);
 *   <li>{@code failed}: cursor and {@code last_fetch_at} untouched (ADR 0009, ADR-073), a miss
 *       more, backoff, {@code Retry-After} honoured;
 *   <li>{@code expired}: nothing was fetched; the lease is released and the source is due now.
 * </ul>
 *
 * Every applied outcome releases the lease and sets the next due time from the cadence policy — or
 * now, if a user asked for a fetch while this one was in flight.
 */
@Component
public class OutcomeApplier {

  /** What happened to an outcome. */
  public enum Result {
    APPLIED,
    STALE,
    UNKNOWN_SOURCE
  }

  private static final String UPDATE =
      """
      UPDATE scheduler.sources SET
        lease_until = NULL, cursor_json = :cursor::jsonb, last_status = :status, last_error = :error,
        last_outcome_at = :at, retry_after = :retryAfter, consecutive_misses = :misses,
        next_due_at = :nextDue, updated_at = :now
      WHERE id = :id
      """;
  // manual_requested is left as it is: set during the fetch, it must reach the next claim, which
  // reads it into FetchRequested.manual and clears it in the same statement.

  private final ScheduleRows rows;
  private final NextDue nextDue;
  private final JdbcClient jdbc;
  private final TransactionTemplate tx;
  private final Clock clock;

  OutcomeApplier(
      ScheduleRows rows, NextDue nextDue, JdbcClient jdbc, TransactionTemplate tx, Clock clock) {
    this.rows = rows;
    this.nextDue = nextDue;
    this.jdbc = jdbc;
    this.tx = tx;
    this.clock = clock;
  }

  /**
   * @throws PoisonRecordException when the event cannot belong to any source (malformed id): such a
   *     record goes to the DLQ
   */
  public Result apply(FetchCompleted event) {
    UUID id = parseId(event.getSourceId());
    return tx.execute(status -> applyLocked(id, event));
  }

  private Result applyLocked(UUID id, FetchCompleted event) {
    var found = rows.lock(id);
    if (found.isEmpty()) {
      return Result.UNKNOWN_SOURCE;
    }
    ScheduleRow row = found.get();
    if (row.epoch() != event.getEpoch() || row.leaseUntil() == null) {
      return Result.STALE;
    }
    Instant now = clock.instant();
    Instant at = event.getFinishedAt();
    // ADR 0003: a batch run's fetch happened, logically, at the run's window_end.
    Instant fetchedAt = row.claimedWindowEnd() != null ? row.claimedWindowEnd() : at;
    Outcome outcome;
    String cursor = row.cursorJson();
    int misses = row.consecutiveMisses();
    Instant retryAfter = null;
    switch (event.getStatus()) {
      case ok, partial -> {
        outcome = new Outcome.Success(fetchedAt);
        cursor = Cursors.afterSuccess(row.cursorJson(), event.getCursor(), fetchedAt);
        misses = 0;
      }
      case not_modified -> {
        outcome = new Outcome.NotModified(fetchedAt);
        cursor = Cursors.afterSuccess(row.cursorJson(), null, fetchedAt);
        misses = 0;
      }
      case expired -> outcome = null;
      default -> {
        retryAfter = event.getRetryAfter();
        outcome = new Outcome.Failure(at, retryAfter);
        misses = misses + 1;
      }
    }
    Instant due =
        outcome == null || row.manualRequested() ? now : nextDue.afterOutcome(row, outcome, now);
    jdbc.sql(UPDATE)
        .param("cursor", cursor)
        .param("status", event.getStatus().name())
        .param("error", error(event))
        .param("at", Timestamp.from(at))
        .param("retryAfter", retryAfter == null ? null : Timestamp.from(retryAfter))
        .param("misses", misses)
        .param("nextDue", Timestamp.from(due))
        .param("now", Timestamp.from(now))
        .param("id", id)
        .update();
    return Result.APPLIED;
  }

  private static String error(FetchCompleted event) {
    if (event.getStatus() == FetchStatus.ok || event.getStatus() == FetchStatus.not_modified) {
      return null;
    }
    String kind = event.getErrorKind() == null ? "" : event.getErrorKind();
    String message = event.getErrorMessage() == null ? "" : event.getErrorMessage();
    String joined = kind.isEmpty() ? message : kind + (message.isEmpty() ? "" : ": " + message);
    return joined.length() > 2000 ? joined.substring(0, 2000) : joined;
  }

  static UUID parseId(String sourceId) {
    try {
      return UUID.fromString(sourceId);
    } catch (IllegalArgumentException e) {
      throw new PoisonRecordException("source_id '" + sourceId + "' is not a UUID", e);
    }
  }
}
