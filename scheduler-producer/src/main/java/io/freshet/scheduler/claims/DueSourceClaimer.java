package io.freshet.scheduler.claims;

import io.freshet.scheduler.schedule.ScheduleRow;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Claims due sources in one SQL statement (Decision 008): the due check happens in SQL before the
 * LIMIT, {@code FOR UPDATE SKIP LOCKED} keeps concurrent schedulers off each other's rows, and the
 * same statement sets the lease, bumps the epoch and moves the due time to the lease end — so an
 * unanswered claim makes the source due again when its lease expires. Must run inside the claim
 * transaction: the row locks last only as long as it.
 */
@Component
public class DueSourceClaimer {

  private static final String RETURNING =
      """
      RETURNING s.id, s.tenant_id, s.connector, s.url, s.host, s.config_json::text AS config_json,
                s.cursor_json::text AS cursor_json, s.credentials_encrypted, s.epoch, s.priority,
                due.next_due_at AS due_at, due.manual_requested AS manual
      """;

  private static final String SET =
      """
      SET epoch = s.epoch + 1, lease_until = :leaseEnd, next_due_at = :leaseEnd,
          claimed_due_at = due.next_due_at, claimed_window_end = due.window_end,
          manual_requested = false, updated_at = :now
      """;

  private static final String CLAIM_DUE =
      """
      WITH due AS (
        SELECT id, next_due_at, NULL::timestamptz AS window_end, manual_requested
        FROM scheduler.sources
        WHERE enabled AND next_due_at <= :now
        ORDER BY priority DESC, next_due_at
        LIMIT :limit
        FOR UPDATE SKIP LOCKED
      )
      UPDATE scheduler.sources s
      """
          + SET
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
          + SET
          + "FROM due WHERE s.id = due.id\n"
          + RETURNING;

  private final JdbcClient jdbc;

  public DueSourceClaimer(JdbcClient jdbc) {
    this.jdbc = jdbc;
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
        .param("now", Timestamp.from(now))
        .param("limit", limit)
        .param("leaseEnd", Timestamp.from(leaseEnd))
        .query(DueSourceClaimer::map)
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
        .param("windowEnd", Timestamp.from(windowEnd))
        .param("now", Timestamp.from(now))
        .param("leaseEnd", Timestamp.from(leaseEnd))
        .query(DueSourceClaimer::map)
        .list();
  }

  /** The claim statement, for diagnostics (EXPLAIN in the benchmark). */
  public static String claimDueSql() {
    return CLAIM_DUE;
  }

  /** Leases not yet answered (all instances); the in-flight cap is checked against it. */
  public int inFlight(Instant now) {
    return jdbc.sql(
            "SELECT count(*) FROM scheduler.sources WHERE lease_until IS NOT NULL AND lease_until > :now")
        .param("now", Timestamp.from(now))
        .query(Integer.class)
        .single();
  }

  private static ClaimedSource map(java.sql.ResultSet rs, int rowNum) throws java.sql.SQLException {
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
