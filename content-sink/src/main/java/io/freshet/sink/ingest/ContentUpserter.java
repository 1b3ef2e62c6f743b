package io.freshet.sink.ingest;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a batch of item versions in one statement and one round trip: the batch travels as arrays
 * ({@code unnest}), each version is inserted unless the same (source, item, hash) is stored already
 * — then only its {@code last_seen_at} moves — and a new hash of a known item is linked to the
 * item's latest version ({@code version_of}). The only writer of {@code platform_content}'s rows.
 */
@Repository
public class ContentUpserter {

  /** What one batch did. */
  public record Result(int inserted, int versions, int duplicates) {}

  // ids are drawn up front so that a version can point at an earlier version of the same batch,
  // which the table does not show yet within this statement.
  private static final String UPSERT =
      """
      WITH input AS (
        SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                             ?::text[], ?::text[], ?::text[], ?::bool[], ?::text[], ?::int8[],
                             ?::int8[], ?::int8[], ?::text[], ?::int8[], ?::int8[], ?::text[],
                             ?::int4[])
          WITH ORDINALITY AS i(tenant_id, source_id, connector, item_id, content_hash, request_id,
                               url, title, body, truncated, content_type, published_ms,
                               fetched_ms, last_seen_ms, signal_type, event_ms, expires_ms,
                               metadata, prev_ord, ord)
      ),
      ids AS MATERIALIZED (SELECT ord, nextval('platform_content_id_seq') AS id FROM input),
      resolved AS (
        SELECT i.*, ids.id,
          CASE WHEN i.prev_ord IS NOT NULL THEN
            coalesce(
              (SELECT c.id FROM platform_content c JOIN input p ON p.ord = i.prev_ord
                WHERE c.source_id = p.source_id AND c.item_id = p.item_id
                  AND c.content_hash = p.content_hash),
              (SELECT x.id FROM ids x WHERE x.ord = i.prev_ord))
          ELSE
            (SELECT c.id FROM platform_content c
              WHERE c.source_id = i.source_id AND c.item_id = i.item_id
                AND c.content_hash <> i.content_hash
              ORDER BY c.last_seen_at DESC, c.id DESC LIMIT 1)
          END AS version_of
        FROM input i JOIN ids ON ids.ord = i.ord
      )
      INSERT INTO platform_content AS c
        (id, tenant_id, source_id, connector, item_id, content_hash, version_of, request_id, url,
         title, body, truncated, content_type, published_at, fetched_at, first_seen_at,
         last_seen_at, signal_type, event_at, expires_at, metadata)
      SELECT id, tenant_id, source_id, connector, item_id, content_hash, version_of, request_id,
             url, title, body, truncated, content_type, to_timestamp(published_ms / 1000.0),
             to_timestamp(fetched_ms / 1000.0), to_timestamp(fetched_ms / 1000.0),
             to_timestamp(last_seen_ms / 1000.0), signal_type, to_timestamp(event_ms / 1000.0),
             to_timestamp(expires_ms / 1000.0), metadata::jsonb
        FROM resolved ORDER BY ord
      ON CONFLICT (source_id, item_id, content_hash)
        DO UPDATE SET last_seen_at = greatest(c.last_seen_at, excluded.last_seen_at)
      RETURNING (xmax = 0) AS inserted, c.version_of IS NOT NULL AS is_version
      """;

  private final JdbcTemplate jdbc;
  private final JsonMapper json;

  ContentUpserter(JdbcTemplate jdbc, JsonMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  public Result upsert(UpsertPlan plan) {
    if (plan.isEmpty()) {
      return new Result(0, 0, plan.collapsed());
    }
    return jdbc.execute((ConnectionCallback<Result>) conn -> run(conn, plan));
  }

  private Result run(Connection conn, UpsertPlan plan) throws SQLException {
    List<ContentVersion> rows = plan.rows();
    int n = rows.size();
    Integer[] prev = new Integer[n];
    Long[] lastSeen = new Long[n];
    for (int i = 0; i < n; i++) {
      prev[i] = plan.previousInBatch()[i] < 0 ? null : plan.previousInBatch()[i] + 1;
      lastSeen[i] = plan.lastSeen().get(i).toEpochMilli();
    }
    try (PreparedStatement st = conn.prepareStatement(UPSERT)) {
      int p = 1;
      st.setArray(p++, text(conn, rows, ContentVersion::tenantId));
      st.setArray(p++, text(conn, rows, ContentVersion::sourceId));
      st.setArray(p++, text(conn, rows, ContentVersion::connector));
      st.setArray(p++, text(conn, rows, ContentVersion::itemId));
      st.setArray(p++, text(conn, rows, ContentVersion::contentHash));
      st.setArray(p++, text(conn, rows, ContentVersion::requestId));
      st.setArray(p++, text(conn, rows, ContentVersion::url));
      st.setArray(p++, text(conn, rows, ContentVersion::title));
      st.setArray(p++, text(conn, rows, ContentVersion::body));
      st.setArray(
          p++, conn.createArrayOf("bool", rows.stream().map(ContentVersion::truncated).toArray()));
      st.setArray(p++, text(conn, rows, ContentVersion::contentType));
      st.setArray(p++, millis(conn, rows, ContentVersion::publishedAt));
      st.setArray(p++, millis(conn, rows, ContentVersion::fetchedAt));
      st.setArray(p++, conn.createArrayOf("int8", lastSeen));
      st.setArray(p++, text(conn, rows, ContentVersion::signalType));
      st.setArray(p++, millis(conn, rows, ContentVersion::eventAt));
      st.setArray(p++, millis(conn, rows, ContentVersion::expiresAt));
      st.setArray(p++, text(conn, rows, v -> metadataJson(v.metadata())));
      st.setArray(p, conn.createArrayOf("int4", prev));
      int inserted = 0;
      int versions = 0;
      int conflicts = 0;
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          if (rs.getBoolean(1)) {
            inserted++;
            if (rs.getBoolean(2)) {
              versions++;
            }
          } else {
            conflicts++;
          }
        }
      }
      return new Result(inserted, versions, conflicts + plan.collapsed());
    }
  }

  private String metadataJson(Map<String, String> metadata) {
    return json.writeValueAsString(metadata);
  }

  private static Array text(
      Connection conn, List<ContentVersion> rows, Function<ContentVersion, String> field)
      throws SQLException {
    return conn.createArrayOf("text", rows.stream().map(field).toArray());
  }

  private static Array millis(
      Connection conn, List<ContentVersion> rows, Function<ContentVersion, Instant> field)
      throws SQLException {
    return conn.createArrayOf(
        "int8",
        rows.stream()
            .map(field)
            .map(t -> t == null ? null : t.toEpochMilli())
            .toArray(Long[]::new));
  }
}
