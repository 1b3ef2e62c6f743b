package io.freshet.scheduler.schedule;

import io.freshet.cadence.source.Outcome;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ServerHints;
import io.freshet.schemas.serde.PoisonRecordException;
import java.time.Instant;
import tools.jackson.databind.json.JsonMapper;

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
 *   <li>{@code expired}: nothing was fetched; the lease is released and the source is due now — or,
 *       when its host was cooling down ({@code host_cooling_down}), when the cool-down ends, with
 *       no miss counted;
 *   <li>{@code unknown} (a symbol of a newer schema this build does not know): a poison record.
 * </ul>
 *
 * On top, the server's rules ({@link ServerRules}): its freshness hints are a floor under the next
 * due time (unless the source's config says {@code "hints": "ignore"}), {@code Retry-After} is
 * capped, a robots.txt refusal and repeated 404s wait the ceiling, 410 Gone disables the source, a
 * permanent redirect seen on two fetches in a row moves it, and due times get a small per-source
 * jitter ({@link Jitter}).
 *
 * <p>A fetch requested by a batch run happened, logically, at the run's {@code window_end} (ADR
 * 0003). A fetch-now asked for while this fetch was in flight makes the source due now.
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
   * @param facts what the server said of the source, to store; null to leave the stored ones
   * @param move the source's new URL after a permanent move, or null
   * @param disabledReason why the source is now disabled ({@code gone}), or null
   * @param heldBy the hint that held the due time back ({@code max_age}, {@code ttl}, {@code
   *     update_period}, {@code skip}), or null
   */
  public record Apply(
      String cursorJson,
      String status,
      String error,
      Instant outcomeAt,
      Instant retryAfter,
      int misses,
      Instant nextDue,
      Facts facts,
      Move move,
      String disabledReason,
      String heldBy)
      implements Decision {

    /** An outcome that changes nothing beyond the schedule columns. */
    public Apply(
        String cursorJson,
        String status,
        String error,
        Instant outcomeAt,
        Instant retryAfter,
        int misses,
        Instant nextDue) {
      this(
          cursorJson,
          status,
          error,
          outcomeAt,
          retryAfter,
          misses,
          nextDue,
          null,
          null,
          null,
          null);
    }

    /** This outcome with the server's rules applied: a new due time and what they add. */
    Apply then(Instant due, Facts facts, Move move, String disabledReason, String heldBy) {
      return new Apply(
          cursorJson,
          status,
          error,
          outcomeAt,
          retryAfter,
          misses,
          due,
          facts,
          move,
          disabledReason,
          heldBy);
    }
  }

  /**
   * What the last answered fetch said of its source.
   *
   * @param hintsJson its freshness hints as JSON, or null for none
   * @param hintNotBefore the due time the hints held the source back to, or null
   * @param movedTo a permanent move seen on this fetch, awaiting the next one to confirm it
   * @param selfUrl the document's own URL, when it differs from the source's
   * @param hubUrl the WebSub hub the document announces
   */
  public record Facts(
      String hintsJson, Instant hintNotBefore, String movedTo, String selfUrl, String hubUrl) {}

  /** A permanent move confirmed by two fetches in a row: the source's URL becomes {@code to}. */
  public record Move(String from, String to, String host) {}

  /** Status 410 disables its source for this reason. */
  public static final String GONE = "gone";

  private static final int MAX_URL_LENGTH = 2_048;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final int MAX_ERROR_LENGTH = 2000;

  private OutcomeRules() {}

  /**
   * @throws PoisonRecordException for a status this build does not know
   */
  public static Decision decide(
      ScheduleRow row, FetchCompleted event, Instant now, Cadence cadence) {
    return decide(row, event, now, cadence, ServerRules.NO_JITTER);
  }

  /**
   * @throws PoisonRecordException for a status this build does not know
   */
  public static Decision decide(
      ScheduleRow row, FetchCompleted event, Instant now, Cadence cadence, ServerRules rules) {
    Decision decision = decideCadence(row, event, now, cadence, rules);
    return decision instanceof Apply apply
        ? withServerRules(row, event, now, apply, rules)
        : decision;
  }

  private static Decision decideCadence(
      ScheduleRow row, FetchCompleted event, Instant now, Cadence cadence, ServerRules rules) {
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
      case failed -> {
        Instant retryAfter = rules.capRetryAfter(event.getRetryAfter(), finishedAt);
        yield apply(
            row,
            cadence,
            now,
            new Outcome.Failure(finishedAt, retryAfter),
            row.cursorJson(),
            status,
            errorOf(event),
            finishedAt,
            retryAfter,
            row.consecutiveMisses() + 1);
      }
      case expired ->
          new Apply(
              row.cursorJson(),
              status,
              errorOf(event),
              finishedAt,
              null,
              row.consecutiveMisses(),
              deferredUntil(row, event, now, rules));
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

  /**
   * An expired request is due again now — unless it was not sent because its host was cooling down:
   * then when the cool-down ends (capped), spread by jitter so that the host's sources do not all
   * come back in the same second.
   */
  private static Instant deferredUntil(
      ScheduleRow row, FetchCompleted event, Instant now, ServerRules rules) {
    Instant until = rules.capRetryAfter(event.getRetryAfter(), now);
    if (until == null || !until.isAfter(now) || row.manualRequested()) {
      return now;
    }
    return Jitter.later(
        until, now, rules.backoffJitter(), rules.backoffJitterMax(), row.id(), row.epoch());
  }

  /** The server's rules on top of the cadence's answer ({@link ServerRules}). */
  private static Apply withServerRules(
      ScheduleRow row, FetchCompleted event, Instant now, Apply apply, ServerRules rules) {
    Instant due = apply.nextDue();
    Instant at = apply.outcomeAt();
    return switch (event.getStatus()) {
      case ok, partial, not_modified -> {
        String heldBy = null;
        Instant hintNotBefore = null;
        // A 304 has no document: the hints of the last one still hold, with the 304's own
        // caching headers on top (RFC 9111 §4.3.4: a 304 refreshes the stored response).
        ServerHints hints =
            event.getStatus() == FetchStatus.not_modified
                ? StoredHints.refreshed(StoredHints.read(row.hintsJson()), event.getHints())
                : event.getHints();
        if (!row.manualRequested()) {
          ServerRules.HintFloor floor = respectsHints(row) ? rules.hintFloor(hints, due, at) : null;
          if (floor != null) {
            due = floor.due();
            heldBy = floor.hint();
            hintNotBefore = floor.due();
          }
          Instant jittered =
              Jitter.later(
                  due,
                  now,
                  rules.intervalJitter(),
                  rules.intervalJitterMax(),
                  row.id(),
                  row.epoch());
          Instant ceiling = at.plus(rules.ceiling());
          due = jittered.isAfter(ceiling) && !due.isAfter(ceiling) ? ceiling : jittered;
        }
        String movedTo = acceptableMove(row, event.getMovedTo());
        Move move = null;
        if (movedTo != null && movedTo.equals(row.movedTo())) {
          move =
              new Move(
                  row.url(),
                  movedTo,
                  java.net.URI.create(movedTo).getHost().toLowerCase(java.util.Locale.ROOT));
          movedTo = null;
        }
        Facts facts =
            new Facts(
                StoredHints.write(hints),
                hintNotBefore,
                movedTo,
                bounded(event.getSelfUrl()),
                bounded(event.getHubUrl()));
        yield apply.then(due, facts, move, null, heldBy);
      }
      case failed -> {
        Integer http = event.getHttpStatus();
        String disabled = http != null && http == 410 ? GONE : null;
        boolean robots = "robots".equals(event.getErrorKind());
        boolean notFoundAgain =
            http != null && http == 404 && apply.misses() >= rules.notFoundMisses();
        if (!row.manualRequested()) {
          if (robots || notFoundAgain) {
            Instant ceiling = at.plus(rules.ceiling());
            due = due.isAfter(ceiling) ? due : ceiling;
          }
          due =
              Jitter.later(
                  due, now, rules.backoffJitter(), rules.backoffJitterMax(), row.id(), row.epoch());
        }
        yield apply.then(due, null, null, disabled, null);
      }
      default -> apply;
    };
  }

  /** Whether the source's config leaves its server's hints in force ({@code "hints": "ignore"}). */
  static boolean respectsHints(ScheduleRow row) {
    String config = row.configJson();
    if (config == null || !config.contains("\"hints\"")) {
      return true;
    }
    var hints = JSON.readTree(config).get("hints");
    return hints == null || !"ignore".equals(hints.asString(""));
  }

  /**
   * A reported move the scheduler may follow: an http(s) URL of sane length, not to another host
   * for a source with credentials (they would go to whoever the old host pointed at). Null if not.
   */
  private static String acceptableMove(ScheduleRow row, String movedTo) {
    if (movedTo == null || movedTo.length() > MAX_URL_LENGTH || movedTo.equals(row.url())) {
      return null;
    }
    try {
      java.net.URI uri = new java.net.URI(movedTo);
      String scheme = uri.getScheme();
      if (uri.getHost() == null
          || scheme == null
          || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
        return null;
      }
      if (row.hasCredentials()
          && !uri.getHost().equalsIgnoreCase(java.net.URI.create(row.url()).getHost())) {
        return null;
      }
      return movedTo;
    } catch (java.net.URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  private static String bounded(String url) {
    return url == null || url.length() > MAX_URL_LENGTH ? null : url.replace('\0', '\uFFFD');
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
