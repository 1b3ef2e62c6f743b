package io.freshet.sink.ingest;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a batch of item versions in one statement and one round trip: the batch travels as arrays
 * ({@code unnest}), each version is inserted unless the same (source, item, hash) is stored already
 * — then only its {@code last_seen_at} moves, and its {@code expires_at} with it: a version is kept
 * {@code retention} after the source last listed it — and a new hash of a known item is linked to
 * the item's latest version ({@code version_of}). The only writer of {@code platform_content}'s
 * rows.
 */
@Repository
public class ContentUpserter {

  /**
   * What one batch did.
   *
   * @param stored for every version of the batch, its row and whether this batch inserted it
   */
  public record Result(
      int inserted, int versions, int duplicates, Map<ContentVersion.Key, Stored> stored) {}

  /** A version's row after the upsert. */
  public record Stored(long id, boolean inserted, boolean isVersion) {}

  /** The SQL types of the statement's input columns, in order (one array parameter each). */
  static final String[] INPUT_TYPES = {
    "text", "text", "text", "text", "text", "text", "text", "text", "text", "bool", "text", "int8",
    "int8", "int8", "text", "int8", "int8", "text", "int4"
  };

  /** The names of the input columns, in order; {@code ord} (the row's 1-based position) follows. */
  static final String INPUT_COLUMNS =
      """
      tenant_id, source_id, connector, item_id, content_hash, request_id, url, title, body,
      truncated, content_type, published_ms, fetched_ms, last_seen_ms, signal_type, event_ms,
      expires_ms, metadata, prev_ord""";

  // The batch as one array per column: one statement, one round trip, one parse whatever the
  // batch size (ADR 0004 compares this with multi-row VALUES and COPY into a staging table).
  private static final String INPUT_UNNEST =
      """
      WITH input AS (
        SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                             ?::text[], ?::text[], ?::text[], ?::bool[], ?::text[], ?::int8[],
                             ?::int8[], ?::int8[], ?::text[], ?::int8[], ?::int8[], ?::text[],
                             ?::int4[])
          WITH ORDINALITY AS i(%s, ord)
      ),
      """
          .formatted(INPUT_COLUMNS);

  // After the input: ids are drawn up front so that a version can point at an earlier version of
  // the same batch, which the table does not show yet within this statement.
  static final String UPSERT_FROM_INPUT =
      """
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
         last_seen_at, signal_type, event_at, expires_at, retention_ms, metadata)
      SELECT id, tenant_id, source_id, connector, item_id, content_hash, version_of, request_id,
             url, title, body, truncated, content_type, to_timestamp(published_ms / 1000.0),
             to_timestamp(fetched_ms / 1000.0), to_timestamp(fetched_ms / 1000.0),
             to_timestamp(last_seen_ms / 1000.0), signal_type, to_timestamp(event_ms / 1000.0),
             to_timestamp(expires_ms / 1000.0), expires_ms - fetched_ms, metadata::jsonb
        FROM resolved ORDER BY ord
      ON CONFLICT (source_id, item_id, content_hash)
        DO UPDATE SET last_seen_at = greatest(c.last_seen_at, excluded.last_seen_at),
                      expires_at = greatest(c.expires_at,
                                            excluded.last_seen_at + c.retention_ms * interval '1 ms')
      RETURNING (xmax = 0) AS inserted, c.version_of IS NOT NULL AS is_version, c.id, c.source_id,
                c.item_id, c.content_hash
      """;

  private static final String UPSERT = INPUT_UNNEST + UPSERT_FROM_INPUT;

  // The content listener may hold some of these rows: a deadlock fails one batch, which is retried.
  private static final String EXTEND_LISTED =
      """
      UPDATE platform_content c
         SET last_seen_at = greatest(c.last_seen_at, l.at),
             expires_at = greatest(c.expires_at, l.at + c.retention_ms * interval '1 ms')
        FROM (SELECT source_id, item_id, content_hash, max(to_timestamp(at_ms / 1000.0)) AS at
                FROM unnest(?::text[], ?::text[], ?::text[], ?::int8[])
                  AS u(source_id, item_id, content_hash, at_ms)
               GROUP BY 1, 2, 3) l
       WHERE c.source_id = l.source_id AND c.item_id = l.item_id
         AND c.content_hash = l.content_hash
      """;

  private final JdbcTemplate jdbc;
  private final JsonMapper json;

  ContentUpserter(JdbcTemplate jdbc, JsonMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  public Result upsert(UpsertPlan plan) {
    if (plan.isEmpty()) {
      return new Result(0, 0, plan.collapsed(), Map.of());
    }
    return jdbc.execute((ConnectionCallback<Result>) conn -> run(conn, plan));
  }

  private Result run(Connection conn, UpsertPlan plan) throws SQLException {
    List<Object[]> values = rowValues(plan);
    int n = values.size();
    try (PreparedStatement st = conn.prepareStatement(UPSERT)) {
      for (int c = 0; c < INPUT_TYPES.length; c++) {
        Object[] column = new Object[n];
        for (int r = 0; r < n; r++) {
          column[r] = values.get(r)[c];
        }
        st.setArray(c + 1, conn.createArrayOf(INPUT_TYPES[c], column));
      }
      int inserted = 0;
      int versions = 0;
      int conflicts = 0;
      Map<ContentVersion.Key, Stored> stored = new HashMap<>(n * 2);
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          stored.put(
              new ContentVersion.Key(rs.getString(4), rs.getString(5), rs.getString(6)),
              new Stored(rs.getLong(3), rs.getBoolean(1), rs.getBoolean(2)));
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
      return new Result(inserted, versions, conflicts + plan.collapsed(), stored);
    }
  }

  /** A version a fetch listed, and when that fetch ended. */
  public record Listing(String sourceId, String itemId, String contentHash, Instant at) {}

  /**
   * The source listed these versions at these times: each one's {@code last_seen_at} moves up to
   * that time and its {@code expires_at} to that time + its retention (never backwards). Versions
   * not stored (yet) are not touched.
   *
   * @return rows touched
   */
  public int extendListed(List<Listing> listings) {
    if (listings.isEmpty()) {
      return 0;
    }
    return jdbc.execute(
        (ConnectionCallback<Integer>)
            conn -> {
              try (PreparedStatement st = conn.prepareStatement(EXTEND_LISTED)) {
                st.setArray(
                    1,
                    conn.createArrayOf("text", listings.stream().map(Listing::sourceId).toArray()));
                st.setArray(
                    2,
                    conn.createArrayOf("text", listings.stream().map(Listing::itemId).toArray()));
                st.setArray(
                    3,
                    conn.createArrayOf(
                        "text", listings.stream().map(Listing::contentHash).toArray()));
                st.setArray(
                    4,
                    conn.createArrayOf(
                        "int8",
                        listings.stream().map(l -> l.at().toEpochMilli()).toArray(Long[]::new)));
                return st.executeUpdate();
              }
            });
  }

  /**
   * The source answered "not modified" to a fetch that began at {@code startedAt}: it still lists
   * what its latest full read (the latest {@code ok} or {@code partial} fetch in the activity log
   * that began before) listed, so those versions are extended as if listed at {@code at}.
   *
   * @return rows touched
   */
  public int extendUnchangedSinceLastRead(String sourceId, Instant startedAt, Instant at) {
    return jdbc.update(
        """
        UPDATE platform_content c
           SET last_seen_at = greatest(c.last_seen_at, ?),
               expires_at = greatest(c.expires_at, ?::timestamptz + c.retention_ms * interval '1 ms')
         WHERE c.source_id = ?
           AND c.last_seen_at >= (SELECT max(l.started_at) FROM activity_log l
                                   WHERE l.source_id = ? AND l.completed
                                     AND l.status IN ('ok', 'partial') AND l.started_at < ?)
        """,
        java.sql.Timestamp.from(at),
        java.sql.Timestamp.from(at),
        sourceId,
        sourceId,
        java.sql.Timestamp.from(startedAt));
  }

  /**
   * The statement's input, one array of {@link #INPUT_TYPES}-typed values per row (times as epoch
   * milliseconds, {@code prev_ord} 1-based or null).
   */
  List<Object[]> rowValues(UpsertPlan plan) {
    List<ContentVersion> rows = plan.rows();
    List<Object[]> out = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      ContentVersion v = rows.get(i);
      int prev = plan.previousInBatch()[i];
      out.add(
          new Object[] {
            v.tenantId(),
            v.sourceId(),
            v.connector(),
            v.itemId(),
            v.contentHash(),
            v.requestId(),
            v.url(),
            v.title(),
            v.body(),
            v.truncated(),
            v.contentType(),
            millis(v.publishedAt()),
            millis(v.fetchedAt()),
            plan.lastSeen().get(i).toEpochMilli(),
            v.signalType(),
            millis(v.eventAt()),
            millis(v.expiresAt()),
            metadataJson(v.metadata()),
            prev < 0 ? null : prev + 1
          });
    }
    return out;
  }

  private static Long millis(Instant t) {
    return t == null ? null : t.toEpochMilli();
  }

  private String metadataJson(Map<String, String> metadata) {
    return json.writeValueAsString(metadata);
  }
}
