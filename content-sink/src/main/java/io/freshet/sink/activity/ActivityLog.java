package io.freshet.sink.activity;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * The per-fetch activity log (ADR-073): one row per fetch request, written from both topics. A
 * request's {@code ContentFetched} records add their arrivals' counts; its {@code FetchCompleted}
 * fills in the outcome. Either may come first; the row is <em>complete</em> once the outcome is in
 * and as many records have arrived as the fetch emitted. The only writer of {@code activity_log}
 * and {@code content_arrival}.
 */
@Repository
public class ActivityLog {

  // Arrivals already recorded (a redelivery) are skipped by the primary key and so count nothing.
  private static final String ARRIVALS =
      """
      WITH a AS (
        SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::int8[], ?::text[])
          AS a(request_id, source_id, tenant_id, content_id, novelty)
      ),
      fresh AS (
        INSERT INTO content_arrival (request_id, content_id, novelty)
        SELECT request_id, content_id, novelty FROM a
        ON CONFLICT (request_id, content_id) DO NOTHING
        RETURNING request_id, content_id
      )
      INSERT INTO activity_log AS l
        (request_id, source_id, tenant_id, items_new, items_changed, items_duplicate, items_arrived)
      SELECT a.request_id, min(a.source_id), min(a.tenant_id),
             count(*) FILTER (WHERE a.novelty = 'new'),
             count(*) FILTER (WHERE a.novelty = 'changed'),
             count(*) FILTER (WHERE a.novelty = 'duplicate'),
             count(*)
        FROM fresh f JOIN a ON a.request_id = f.request_id AND a.content_id = f.content_id
       GROUP BY a.request_id
      ON CONFLICT (request_id) DO UPDATE SET
        items_new = l.items_new + excluded.items_new,
        items_changed = l.items_changed + excluded.items_changed,
        items_duplicate = l.items_duplicate + excluded.items_duplicate,
        items_arrived = l.items_arrived + excluded.items_arrived
      """;

  // The cursor a fetch used is the one the source's previous successful fetch handed back (a
  // failed fetch keeps the old cursor, ADR 0009), so it is looked up, not carried by the event.
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
        source_id = excluded.source_id, tenant_id = excluded.tenant_id, epoch = excluded.epoch,
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

  /** Counts each arrival into its request's row, once: a recorded arrival counts nothing again. */
  public void recordArrivals(List<Arrival> arrivals) {
    if (arrivals.isEmpty()) {
      return;
    }
    jdbc.execute(
        (ConnectionCallback<Void>)
            conn -> {
              try (PreparedStatement st = conn.prepareStatement(ARRIVALS)) {
                st.setArray(1, text(conn, arrivals.stream().map(Arrival::requestId)));
                st.setArray(2, text(conn, arrivals.stream().map(Arrival::sourceId)));
                st.setArray(3, text(conn, arrivals.stream().map(Arrival::tenantId)));
                st.setArray(
                    4,
                    conn.createArrayOf(
                        "int8", arrivals.stream().map(Arrival::contentId).toArray(Long[]::new)));
                st.setArray(5, text(conn, arrivals.stream().map(a -> a.novelty().column())));
                st.executeUpdate();
              }
              return null;
            });
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

  private static java.sql.Array text(Connection conn, java.util.stream.Stream<String> values)
      throws SQLException {
    return conn.createArrayOf("text", values.toArray());
  }
}
