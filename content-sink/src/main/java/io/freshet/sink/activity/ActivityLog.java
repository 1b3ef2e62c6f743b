package io.freshet.sink.activity;

import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * The per-fetch activity log (ADR 0008
 * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)): one row per fetch request,
 * written from both topics. A request's {@code ContentFetched} records add their counts (written by
 * {@link io.freshet.sink.ingest.ContentUpserter}'s statement, in the same statement as the upsert);
 * its {@code FetchCompleted} fills in the outcome here. Either may come first; the row is
 * <em>complete</em> once the outcome is in and as many records have arrived as the fetch emitted.
 */
@Repository
public class ActivityLog {

  // The cursor a fetch used is the one the source's previous successful fetch handed back (a
  // failed fetch keeps the old cursor, ADR 0008), so it is looked up, not carried by the event.
  private static final String OUTCOME =
      """
      INSERT INTO activity_log AS l
        (request_id, source_id, tenant_id, epoch, status, http_status, error_kind, errors, attempts,
         started_at, finished_at, bytes, items_fetched, items_emitted, items_unchanged,
         cursor_after, cursor_used, completed)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb,
              (SELECT p.cursor_after FROM activity_log p
                WHERE p.source_id = ? AND p.completed AND p.cursor_after IS NOT NULL
                  AND p.started_at < ? AND p.request_id <> ?
                ORDER BY p.started_at DESC LIMIT 1),
              true)
      ON CONFLICT (request_id) DO UPDATE SET
        source_id = excluded.source_id, epoch = excluded.epoch,
        -- the activity API is scoped by tenant: an outcome without one (an older worker) keeps the
        -- tenant its items named
        tenant_id = CASE WHEN excluded.tenant_id = '' THEN l.tenant_id ELSE excluded.tenant_id END,
        status = excluded.status, http_status = excluded.http_status,
        error_kind = excluded.error_kind, errors = excluded.errors, attempts = excluded.attempts,
        started_at = excluded.started_at, finished_at = excluded.finished_at,
        bytes = excluded.bytes, items_fetched = excluded.items_fetched,
        items_emitted = excluded.items_emitted, items_unchanged = excluded.items_unchanged,
        cursor_after = excluded.cursor_after, cursor_used = excluded.cursor_used, completed = true
      """;

  private final JdbcTemplate jdbc;
  private final JsonMapper json;

  public ActivityLog(JdbcTemplate jdbc, JsonMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  /** Records each fetch's outcome; a redelivered outcome writes the same values again. */
  public void recordOutcomes(List<FetchOutcome> outcomes) {
    if (outcomes.isEmpty()) {
      return;
    }
    jdbc.batchUpdate(
        OUTCOME,
        outcomes,
        outcomes.size(),
        (st, o) -> {
          int p = 1;
          st.setString(p++, o.requestId());
          st.setString(p++, o.sourceId());
          st.setString(p++, o.tenantId());
          st.setLong(p++, o.epoch());
          st.setString(p++, o.status());
          if (o.httpStatus() == null) {
            st.setNull(p++, Types.INTEGER);
          } else {
            st.setInt(p++, o.httpStatus());
          }
          st.setString(p++, o.errorKind());
          st.setString(p++, o.errorMessage());
          st.setInt(p++, o.attempts());
          st.setTimestamp(p++, Timestamp.from(o.startedAt()));
          st.setTimestamp(p++, Timestamp.from(o.finishedAt()));
          st.setLong(p++, o.bytes());
          st.setInt(p++, o.listed().size());
          st.setInt(p++, o.itemCount());
          st.setInt(p++, o.unchanged());
          st.setString(p++, o.cursor() == null ? null : json.writeValueAsString(o.cursor()));
          st.setString(p++, o.sourceId());
          st.setTimestamp(p++, Timestamp.from(o.startedAt()));
          st.setString(p, o.requestId());
        });
  }

  /**
   * Deletes up to {@code limit} rows logged before {@code before}, oldest first.
   *
   * @return rows deleted
   */
  public int deleteLoggedBefore(Instant before, int limit) {
    return jdbc.update(
        """
        DELETE FROM activity_log WHERE request_id IN (
          SELECT request_id FROM activity_log WHERE logged_at < ? ORDER BY logged_at LIMIT ?
          FOR UPDATE SKIP LOCKED)
        """,
        Timestamp.from(before),
        limit);
  }
}
