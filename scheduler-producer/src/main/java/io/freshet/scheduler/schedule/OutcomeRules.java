package io.freshet.scheduler.schedule;

import io.freshet.cadence.source.Outcome;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.PoisonRecordException;
import java.time.Instant;

/**
 * What one {@code FetchCompleted} does to its source's row — a pure function of (row, event, now),
 * tested without a database ({@code OutcomeRulesTest}); {@link ScheduleRepository} stores the
 * result. An outcome counts only if it answers the row's current claim (same epoch, lease not yet
 * released): a redelivered, duplicate or stale one changes nothing. Per status (docs/design.md,
 * Outcomes):
 *
 * <ul>
 *   <li>{@code ok}/{@code partial}: the new cursor, {@code last_fetch_at} = fetch time, misses
 *       reset;
 *   <li>{@code not_modified}: {@code last_fetch_at} moves, the cursor stays (ADR 0011
 *       (docs/adr/0011-feed-frequency-from-the-last-ten-items.md): a 304 reschedules too);
 *   <li>{@code failed}: cursor and {@code last_fetch_at} untouched (ADR 0006
 *       (docs/adr/0006-per-source-cadence-and-the-due-rule.md), ADR 0008
 *       (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)), a miss more, backoff,
 *       {@code Retry-After} as a floor;
 *   <li>{@code expired}: nothing was fetched; the lease is released and the source is due now;
 *   <li>{@code unknown} (a symbol of a newer schema this build does not know): a poison record.
 * </ul>
 *
 * A fetch requested by a batch run happened, logically, at the run's {@code window_end} (ADR 0003).
 * A fetch-now asked for while this fetch was in flight makes the source due now.
 */
public final class OutcomeRules {

  /** When a source is next due after an outcome; {@link NextDue#afterOutcome} in the service. */
  @FunctionalInterface
  public interface Cadence {
    Instant afterOutcome(ScheduleRow row, Outcome outcome, Instant now);
  }

  /** What to do with the event. */
  public sealed interface Decision permits Stale, Apply {}

  /**
   * The event answers no current claim: nothing changes.
   *
   * @param why for the log and the outcome metric
   */
  public record Stale(String why) implements Decision {}

  /**
   * The row's new state: lease released, then these columns.
   *
   * @param error {@code error_kind: error_message}, null for ok and not_modified
   * @param outcomeAt the fetch's finish time
   * @param retryAfter the source's {@code Retry-After}, failures only
   */
  public record Apply(
      String cursorJson,
      String status,
      String error,
      Instant outcomeAt,
      Instant retryAfter,
      int misses,
      Instant nextDue)
      implements Decision {}

  private static final int MAX_ERROR_LENGTH = 2000;

  private OutcomeRules() {}

  /**
   * @throws PoisonRecordException for a status this build does not know
   */
  public static Decision decide(
      ScheduleRow row, FetchCompleted event, Instant now, Cadence cadence) {
    if (row.epoch() != event.getEpoch()) {
      return new Stale("epoch " + event.getEpoch() + " is not the current " + row.epoch());
    }
    if (row.leaseUntil() == null) {
      return new Stale("the claim of epoch " + row.epoch() + " was already answered");
    }
    Instant finishedAt = event.getFinishedAt();
    Instant fetchedAt = row.claimedWindowEnd() != null ? row.claimedWindowEnd() : finishedAt;
    String status = event.getStatus().name();
    return switch (event.getStatus()) {
      case ok, partial ->
          apply(
              row,
              cadence,
              now,
              new Outcome.Success(fetchedAt),
              Cursors.afterSuccess(row.cursorJson(), event.getCursor(), fetchedAt),
              status,
              event.getStatus() == FetchStatus.partial ? errorOf(event) : null,
              finishedAt,
              null,
              0);
      case not_modified ->
          apply(
              row,
              cadence,
              now,
              new Outcome.NotModified(fetchedAt),
              Cursors.afterSuccess(row.cursorJson(), null, fetchedAt),
              status,
              null,
              finishedAt,
              null,
              0);
      case failed ->
          apply(
              row,
              cadence,
              now,
              new Outcome.Failure(finishedAt, event.getRetryAfter()),
              row.cursorJson(),
              status,
              errorOf(event),
              finishedAt,
              event.getRetryAfter(),
              row.consecutiveMisses() + 1);
      case expired ->
          new Apply(
              row.cursorJson(),
              status,
              errorOf(event),
              finishedAt,
              null,
              row.consecutiveMisses(),
              now);
      case unknown ->
          throw new PoisonRecordException(
              "status is a symbol this scheduler does not know (written by a newer schema)", null);
    };
  }

  private static Apply apply(
      ScheduleRow row,
      Cadence cadence,
      Instant now,
      Outcome outcome,
      String cursor,
      String status,
      String error,
      Instant finishedAt,
      Instant retryAfter,
      int misses) {
    Instant due = row.manualRequested() ? now : cadence.afterOutcome(row, outcome, now);
    return new Apply(cursor, status, error, finishedAt, retryAfter, misses, due);
  }

  private static String errorOf(FetchCompleted event) {
    String kind = event.getErrorKind() == null ? "" : event.getErrorKind();
    String message = event.getErrorMessage() == null ? "" : event.getErrorMessage();
    String joined = kind.isEmpty() ? message : kind + (message.isEmpty() ? "" : ": " + message);
    if (joined.isEmpty()) {
      return null;
    }
    // PostgreSQL text cannot hold U+0000: stored as it came, it would fail the outcome on every
    // retry and hold up its partition.
    joined = joined.replace('\0', '\uFFFD');
    return joined.length() > MAX_ERROR_LENGTH ? joined.substring(0, MAX_ERROR_LENGTH) : joined;
  }
}
