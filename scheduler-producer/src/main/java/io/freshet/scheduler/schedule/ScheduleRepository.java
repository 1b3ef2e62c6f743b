package io.freshet.scheduler.schedule;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The owner of a source's schedule columns, with {@link ScheduleBatches} (the inbound path's
 * statements for a whole poll: outcomes and stats): every statement that writes {@code
 * next_due_at}, the lease, the epoch, the misses, the manual flag or the stats that cadence reads
 * is in one of the two — claims, outcomes, set-asides, reschedules, manual fetches and stats — so
 * the rules that keep them consistent can be read in one place. What the new values are is decided
 * elsewhere, in plain Java ({@link OutcomeRules}, {@link NextDue}); this class only stores them.
 * Writes must run inside the caller's transaction.
 *
 * <p>Claims (ADR 0007 (docs/adr/0007-due-selection-in-sql-with-skip-locked.md)): one statement
 * selects the due sources — the due check in SQL before the LIMIT — with {@code FOR UPDATE SKIP
 * LOCKED}, so concurrent schedulers never take the same row, and in the same statement bumps the
 * epoch, sets the lease and moves the due time to the lease end, so an unanswered claim makes the
 * source due again when its lease expires.
 */
@Repository
public class ScheduleRepository {

  private static final String LOCK =
      "SELECT "
          + ScheduleRow.COLUMNS
          + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
          + " WHERE s.id = :id FOR UPDATE OF s";

  private static final String LOCK_WITH_PUSH =
      "SELECT "
          + ScheduleRow.COLUMNS
          + ", s.push_live_until, s.push_received_at, s.claim_trigger"
          + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
          + " WHERE s.id = :id FOR UPDATE OF s";

  private static final String RETURNING =
      """
      RETURNING s.id, s.tenant_id, s.connector, s.url, s.host, s.config_json::text AS config_json,
                s.cursor_json::text AS cursor_json, s.credentials_encrypted, s.epoch, s.priority,
                due.next_due_at AS due_at, due.manual_requested AS manual
      """;

  private static final String CLAIM_SET =
      """
      SET epoch = s.epoch + 1, lease_until = :leaseEnd, next_due_at = :leaseEnd,
          claimed_due_at = due.next_due_at, claimed_window_end = due.window_end,
          claim_trigger = CASE WHEN due.push_requested THEN 'push'
                               WHEN due.manual_requested THEN 'manual' ELSE 'poll' END,
          manual_requested = false, push_requested = false, updated_at = :now
      """;

  /**
   * {@code WITH RECURSIVE levels(priority)}: the priorities of enabled sources, highest first, one
   * probe of {@code sources_claim_idx} each (a loose index scan), ending with a null row. The claim
   * and the due-backlog gauge read the due set through it, one priority at a time, so that both
   * cost what the due set costs, not the table.
   */
  public static final String PRIORITY_LEVELS =
      """
      WITH RECURSIVE levels AS (
        (SELECT priority FROM scheduler.sources WHERE enabled ORDER BY priority DESC LIMIT 1)
        UNION ALL
        SELECT (SELECT s.priority FROM scheduler.sources s
                WHERE s.enabled AND s.priority < levels.priority
                ORDER BY s.priority DESC LIMIT 1)
        FROM levels WHERE levels.priority IS NOT NULL
      )
      """;

  // Priority first, then the longest overdue (ADR 0007), without sorting the due set: the
  // priorities in use are walked from the highest down on sources_claim_idx (one index probe per
  // priority, a loose index scan), and each one's due sources read in due order from the same
  // index, until the limit is reached. The nested loop keeps the walk's order and stops pulling —
  // and locking — rows at the limit, so a round's cost follows its batch, not the backlog.
  private static final String CLAIM_DUE =
      PRIORITY_LEVELS
          + """
      , due AS (
        SELECT d.id, d.next_due_at, NULL::timestamptz AS window_end, d.manual_requested,
               d.push_requested
        FROM levels CROSS JOIN LATERAL (
          SELECT id, next_due_at, manual_requested, push_requested
          FROM scheduler.sources
          WHERE enabled AND priority = levels.priority AND next_due_at <= :now
          ORDER BY next_due_at
          LIMIT :limit
          FOR UPDATE SKIP LOCKED
        ) d
        LIMIT :limit
      )
      UPDATE scheduler.sources s
      """
          + CLAIM_SET
          + "FROM due WHERE s.id = due.id\n"
          + RETURNING;

  private static final String CLAIM_IDS =
      """
      WITH due AS (
        SELECT id, :windowEnd::timestamptz AS next_due_at, :windowEnd::timestamptz AS window_end,
               manual_requested, push_requested
        FROM scheduler.sources
        WHERE id IN (:ids) AND enabled AND (lease_until IS NULL OR lease_until <= :now)
        FOR UPDATE SKIP LOCKED
      )
      UPDATE scheduler.sources s
      """
          + CLAIM_SET
          + "FROM due WHERE s.id = due.id\n"
          + RETURNING;

  private static final String SET_ASIDE =
      """
      UPDATE scheduler.sources SET lease_until = NULL, last_status = 'failed', last_error = :error,
        last_outcome_at = :now, consecutive_misses = :misses, next_due_at = :nextDue,
        updated_at = :now
      WHERE id = :id
      """;

  private static final String REQUEST_FETCH =
      """
      UPDATE scheduler.sources SET
          manual_requested = true,
          next_due_at = CASE WHEN lease_until IS NULL OR lease_until <= :now
                             THEN least(next_due_at, :now) ELSE next_due_at END,
          updated_at = :now
      WHERE id = :id AND enabled
      RETURNING next_due_at, lease_until, lease_until IS NOT NULL AND lease_until > :now
      """;

  // A notification no newer than the last one applied matches no row: redelivery and replays of
  // PushReceived ask for no second fetch. Otherwise the same as REQUEST_FETCH.
  private static final String REQUEST_PUSHED_FETCH =
      """
      UPDATE scheduler.sources SET
          manual_requested = true, push_requested = true,
          push_received_at = :receivedAt,
          next_due_at = CASE WHEN lease_until IS NULL OR lease_until <= :now
                             THEN least(next_due_at, :now) ELSE next_due_at END,
          updated_at = :now
      WHERE id = :id AND enabled
        AND (push_received_at IS NULL OR push_received_at < :receivedAt)
      RETURNING next_due_at, lease_until, lease_until IS NOT NULL AND lease_until > :now
      """;

  // A subscription event no later than the last one applied matches no row (redelivery, replays).
  private static final String PUSH_SUBSCRIPTION =
      """
      UPDATE scheduler.sources SET push_live_until = :liveUntil, push_state_at = :at,
          updated_at = :now
      WHERE id = :id AND (push_state_at IS NULL OR push_state_at < :at)
      """;

  private final JdbcClient jdbc;

  public ScheduleRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The row, locked until the surrounding transaction ends; empty if the source is gone. */
  public Optional<ScheduleRow> lock(UUID id) {
    return jdbc.sql(LOCK).param("id", id).query(ScheduleRow::map).optional();
  }

  /**
   * A locked row with what outcomes need beside it.
   *
   * @param trigger what asked for the claim in flight: {@code push} (a WebSub notification), {@code
   *     manual} (the API's fetch-now) or {@code poll} (the cadence, a safety-net poll, a run)
   */
  public record Locked(ScheduleRow row, PushRules.PushState push, String trigger) {}

  /**
   * The row and what it says of push ({@link PushRules}) in one statement, as every outcome needs
   * both, locked until the surrounding transaction ends; empty if the source is gone.
   */
  public Optional<Locked> lockWithPush(UUID id) {
    return jdbc.sql(LOCK_WITH_PUSH)
        .param("id", id)
        .query(
            (rs, n) ->
                new Locked(
                    ScheduleRow.map(rs, n),
                    new PushRules.PushState(
                        ScheduleRow.instant(rs, "push_live_until"),
                        ScheduleRow.instant(rs, "push_received_at"),
                        "push".equals(rs.getString("claim_trigger"))),
                    rs.getString("claim_trigger")))
        .optional();
  }

  /**
   * Claims up to {@code limit} enabled sources due at {@code now}, highest priority first, then
   * longest overdue.
   */
  public List<ClaimedSource> claimDue(Instant now, int limit, Instant leaseEnd) {
    if (limit <= 0) {
      return List.of();
    }
    return jdbc.sql(CLAIM_DUE)
        .param("now", ts(now))
        .param("limit", limit)
        .param("leaseEnd", ts(leaseEnd))
        .query(ScheduleRepository::claimed)
        .list();
  }

  /**
   * Claims the given sources for a batch run at {@code windowEnd} (they were found due by the
   * cadence rule at that instant), skipping any that are leased or locked by another scheduler.
   */
  public List<ClaimedSource> claimIds(
      Collection<UUID> ids, Instant windowEnd, Instant now, Instant leaseEnd) {
    if (ids.isEmpty()) {
      return List.of();
    }
    return jdbc.sql(CLAIM_IDS)
        .param("ids", ids)
        .param("windowEnd", ts(windowEnd))
        .param("now", ts(now))
        .param("leaseEnd", ts(leaseEnd))
        .query(ScheduleRepository::claimed)
        .list();
  }

  /** The claim statement, for diagnostics (EXPLAIN in the benchmark). */
  public static String claimDueSql() {
    return CLAIM_DUE;
  }

  /** Leases not yet answered (all instances). */
  public int inFlight(Instant now) {
    return jdbc.sql(
            "SELECT count(*) FROM scheduler.sources WHERE lease_until IS NOT NULL AND lease_until > :now")
        .param("now", ts(now))
        .query(Integer.class)
        .single();
  }

  /**
   * Releases a claim whose request can never be sent (ADR 0007's error isolation): the error
   * recorded, one miss more, due again at {@code nextDue} (the cadence module's backoff).
   */
  public void setAside(UUID id, String error, int misses, Instant nextDue, Instant now) {
    jdbc.sql(SET_ASIDE)
        .param("error", error)
        .param("misses", misses)
        .param("nextDue", ts(nextDue))
        .param("now", ts(now))
        .param("id", id)
        .update();
  }

  /** Stores a recomputed due time (the row changed, nothing was fetched). */
  public void setNextDue(UUID id, Instant nextDueAt, Instant now) {
    jdbc.sql("UPDATE scheduler.sources SET next_due_at = :due, updated_at = :now WHERE id = :id")
        .param("due", ts(nextDueAt))
        .param("now", ts(now))
        .param("id", id)
        .update();
  }

  /**
   * The manual override of ADR 0011 (docs/adr/0011-feed-frequency-from-the-last-ten-items.md), in
   * one statement: flags the source and, unless a claim's lease is active, makes it due now. Empty
   * if there is no such enabled source.
   */
  public Optional<FetchRequest> requestFetch(UUID id, Instant now) {
    return jdbc.sql(REQUEST_FETCH)
        .param("id", id)
        .param("now", ts(now))
        .query(
            (rs, n) ->
                new FetchRequest(
                    ScheduleRow.instant(rs, "next_due_at"),
                    ScheduleRow.instant(rs, "lease_until"),
                    rs.getBoolean(3)))
        .optional();
  }

  /**
   * The fetch-now of {@link #requestFetch} for a WebSub notification received at {@code
   * receivedAt}, at most once per notification: empty when the source is unknown or disabled, or a
   * notification as new or newer was already applied.
   */
  public Optional<FetchRequest> requestPushedFetch(UUID id, Instant receivedAt, Instant now) {
    return jdbc.sql(REQUEST_PUSHED_FETCH)
        .param("id", id)
        .param("receivedAt", ts(receivedAt))
        .param("now", ts(now))
        .query(
            (rs, n) ->
                new FetchRequest(
                    ScheduleRow.instant(rs, "next_due_at"),
                    ScheduleRow.instant(rs, "lease_until"),
                    rs.getBoolean(3)))
        .optional();
  }

  /**
   * Stores a subscription event of the push receiver: live until {@code liveUntil}, or ended
   * (null). An event no later than the last one applied changes nothing.
   *
   * @return whether it was stored
   */
  public boolean storePushSubscription(UUID id, Instant liveUntil, Instant at, Instant now) {
    return jdbc.sql(PUSH_SUBSCRIPTION)
            .param("liveUntil", ts(liveUntil))
            .param("at", ts(at))
            .param("now", ts(now))
            .param("id", id)
            .update()
        > 0;
  }

  private static Timestamp ts(Instant instant) {
    return instant == null ? null : Timestamp.from(instant);
  }

  private static ClaimedSource claimed(ResultSet rs, int rowNum) throws SQLException {
    return new ClaimedSource(
        rs.getObject("id", UUID.class),
        rs.getString("tenant_id"),
        rs.getString("connector"),
        rs.getString("url"),
        rs.getString("host"),
        rs.getString("config_json"),
        rs.getString("cursor_json"),
        rs.getBytes("credentials_encrypted"),
        rs.getLong("epoch"),
        rs.getInt("priority"),
        ScheduleRow.instant(rs, "due_at"),
        rs.getBoolean("manual"));
  }
}
