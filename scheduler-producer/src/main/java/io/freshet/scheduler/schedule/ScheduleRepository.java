package io.freshet.scheduler.schedule;

import io.freshet.schemas.avro.SourceStats;
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
import tools.jackson.databind.json.JsonMapper;

/**
 * The one owner of a source's schedule columns: every statement that writes {@code next_due_at},
 * the lease, the epoch, the misses, the manual flag or the stats that cadence reads is here —
 * claims, outcomes, set-asides, reschedules, manual fetches and stats — so the rules that keep them
 * consistent can be read in one place. What the new values are is decided elsewhere, in plain Java
 * ({@link OutcomeRules}, {@link NextDue}); this class only stores them. Writes must run inside the
 * caller's transaction.
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
          + ", s.push_live_until, s.push_received_at"
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
          manual_requested = false, updated_at = :now
      """;

  // Priority first, then the longest overdue (ADR 0007), without sorting the due set: the
  // priorities in use are walked from the highest down on sources_claim_idx (one index probe per
  // priority, a loose index scan), and each one's due sources read in due order from the same
  // index, until the limit is reached. The nested loop keeps the walk's order and stops pulling —
  // and locking — rows at the limit, so a round's cost follows its batch, not the backlog.
  private static final String CLAIM_DUE =
      """
      WITH RECURSIVE levels AS (
        (SELECT priority FROM scheduler.sources WHERE enabled ORDER BY priority DESC LIMIT 1)
        UNION ALL
        SELECT (SELECT s.priority FROM scheduler.sources s
                WHERE s.enabled AND s.priority < levels.priority
                ORDER BY s.priority DESC LIMIT 1)
        FROM levels WHERE levels.priority IS NOT NULL
      ), due AS (
        SELECT d.id, d.next_due_at, NULL::timestamptz AS window_end, d.manual_requested
        FROM levels CROSS JOIN LATERAL (
          SELECT id, next_due_at, manual_requested
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
               manual_requested
        FROM scheduler.sources
        WHERE id IN (:ids) AND enabled AND (lease_until IS NULL OR lease_until <= :now)
        FOR UPDATE SKIP LOCKED
      )
      UPDATE scheduler.sources s
      """
          + CLAIM_SET
          + "FROM due WHERE s.id = due.id\n"
          + RETURNING;

  private static final String APPLY_OUTCOME =
      """
      UPDATE scheduler.sources SET
        lease_until = NULL, cursor_json = :cursor::jsonb, last_status = :status, last_error = :error,
        last_outcome_at = :at, retry_after = :retryAfter, consecutive_misses = :misses,
        next_due_at = :nextDue, updated_at = :now,
        hints = CASE WHEN :facts THEN CAST(:hints AS jsonb) ELSE hints END,
        hint_not_before = CASE WHEN :facts THEN CAST(:hintNotBefore AS timestamptz)
                               ELSE hint_not_before END,
        moved_to = CASE WHEN :facts THEN CAST(:movedTo AS text) ELSE moved_to END,
        self_url = CASE WHEN :facts THEN CAST(:selfUrl AS text) ELSE self_url END,
        hub_url = CASE WHEN :facts THEN CAST(:hubUrl AS text) ELSE hub_url END,
        url = coalesce(CAST(:newUrl AS text), url), host = coalesce(CAST(:newHost AS text), host),
        enabled = enabled AND CAST(:disabledReason AS text) IS NULL,
        disabled_reason = coalesce(CAST(:disabledReason AS text), disabled_reason)
      WHERE id = :id
      """;

  private static final String RECORD_MOVE =
      """
      INSERT INTO scheduler.source_url_history (source_id, url, replaced_by, reason, replaced_at)
      VALUES (:id, :from, :to, 'moved_permanently', :now)
      """;
  // manual_requested is left as it is by outcomes: set during the fetch, it must reach the next
  // claim, which reads it into FetchRequested.manual and clears it in the same statement.

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
          manual_requested = true,
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

  // Older stats than the stored ones (redelivery, compaction replays) match no row: the check is in
  // the statement, so two deliveries racing cannot store the older one last.
  private static final String STORE_STATS =
      """
      UPDATE scheduler.sources SET
        window_fetches = :windowFetches, avg_signal_yield = :yield,
        dominant_signal_type = :dominant, type_counts = :typeCounts::jsonb,
        median_days_to_event = :median, publish_interval_avg_ms = :interval,
        recent_published_at = :recent, change_rate = :changeRate,
        consecutive_empty = :empty, stats_updated_at = :updatedAt
      WHERE id = :id AND (stats_updated_at IS NULL OR stats_updated_at <= :updatedAt)
      """;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private final JdbcClient jdbc;

  public ScheduleRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The row, locked until the surrounding transaction ends; empty if the source is gone. */
  public Optional<ScheduleRow> lock(UUID id) {
    return jdbc.sql(LOCK).param("id", id).query(ScheduleRow::map).optional();
  }

  /** A locked row with what it says of push. */
  public record Locked(ScheduleRow row, PushRules.PushState push) {}

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
                        ScheduleRow.instant(rs, "push_received_at"))))
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
   * Stores an applied outcome ({@link OutcomeRules}) and releases the lease: the schedule columns,
   * what the server said of the source, a confirmed move (the old URL kept in {@code
   * source_url_history}) and a disabling ({@code gone}).
   */
  public void applyOutcome(UUID id, OutcomeRules.Apply outcome, Instant now) {
    OutcomeRules.Facts facts = outcome.facts();
    OutcomeRules.Move move = outcome.move();
    jdbc.sql(APPLY_OUTCOME)
        .param("cursor", outcome.cursorJson())
        .param("status", outcome.status())
        .param("error", outcome.error())
        .param("at", ts(outcome.outcomeAt()))
        .param("retryAfter", ts(outcome.retryAfter()))
        .param("misses", outcome.misses())
        .param("nextDue", ts(outcome.nextDue()))
        .param("now", ts(now))
        .param("facts", facts != null)
        .param("hints", facts == null ? null : facts.hintsJson())
        .param("hintNotBefore", facts == null ? null : ts(facts.hintNotBefore()))
        .param("movedTo", facts == null ? null : facts.movedTo())
        .param("selfUrl", facts == null ? null : facts.selfUrl())
        .param("hubUrl", facts == null ? null : facts.hubUrl())
        .param("newUrl", move == null ? null : move.to())
        .param("newHost", move == null ? null : move.host())
        .param("disabledReason", outcome.disabledReason())
        .param("id", id)
        .update();
    if (move != null) {
      jdbc.sql(RECORD_MOVE)
          .param("id", id)
          .param("from", move.from())
          .param("to", move.to())
          .param("now", ts(now))
          .update();
    }
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

  /** Push no longer counts for this source (its lease ended, or a poll found unannounced items). */
  public void clearPushLive(UUID id, Instant now) {
    jdbc.sql(
            "UPDATE scheduler.sources SET push_live_until = NULL, updated_at = :now WHERE id = :id")
        .param("now", ts(now))
        .param("id", id)
        .update();
  }

  /**
   * Stores a source's latest {@code SourceStats} on its row, unless the stored ones are newer (same
   * {@code updated_at} stores again). Does not touch the due time: the caller reschedules.
   *
   * @return whether the stats were stored (false: older than the stored ones, or no such source)
   */
  public boolean storeStats(UUID id, SourceStats stats) {
    int n =
        jdbc.sql(STORE_STATS)
            .param("windowFetches", stats.getWindowFetches())
            .param("yield", stats.getAvgSignalYield())
            .param(
                "dominant",
                stats.getDominantSignalType() == null ? null : stats.getDominantSignalType().name())
            .param("typeCounts", JSON.writeValueAsString(stats.getTypeCounts()))
            .param("median", stats.getMedianDaysToEvent())
            .param("interval", stats.getPublishIntervalAvg())
            .param(
                "recent",
                stats.getRecentPublishedAt().stream()
                    .map(Timestamp::from)
                    .toArray(Timestamp[]::new))
            .param("changeRate", stats.getChangeRate())
            .param("empty", stats.getConsecutiveEmpty())
            .param("updatedAt", Timestamp.from(stats.getUpdatedAt()))
            .param("id", id)
            .update();
    return n > 0;
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
