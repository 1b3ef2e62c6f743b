package io.freshet.sink.ingest;

import io.freshet.sink.config.SinkProperties;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes a batch of item versions, and what they mean for the activity log, in one statement and
 * one round trip: the batch travels as arrays ({@code unnest}), each version is inserted unless the
 * same (source, item, hash) is stored already — then only its {@code last_seen_at} moves, and its
 * {@code expires_at} with it: a version is kept {@code retention} after the source last listed it —
 * and a new hash of a known item is linked to the item's latest version ({@code version_of}). The
 * same statement counts each record into its request's {@code activity_log} row, once however often
 * it is redelivered (ADR 0005). The only writer of {@code platform_content}'s rows and of {@code
 * content_arrival}.
 */
@Repository
public class ContentUpserter {

  /**
   * What one batch did.
   *
   * @param inserted new rows (first versions and new versions)
   * @param versions new rows that are a new version of a known item
   * @param duplicates records whose version was stored already (a conflict, or a repeat within the
   *     batch)
   */
  public record Result(int inserted, int versions, int duplicates) {}

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

  /**
   * The id each input row gets if it is inserted, drawn up front (in a materialized CTE, so once
   * per row) so that a version can point at an earlier version of the same batch, which the table
   * does not show yet within this statement.
   */
  static final String DRAW_ID = "nextval('platform_content_id_seq') AS id";

  // The batch as one array per column: one statement, one round trip, one parse whatever the
  // batch size (ADR 0005 compares this with multi-row VALUES and COPY into a staging table).
  private static final String INPUT_UNNEST =
      """
      WITH input AS MATERIALIZED (
        SELECT *, %s
          FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                      ?::text[], ?::text[], ?::text[], ?::bool[], ?::text[], ?::int8[],
                      ?::int8[], ?::int8[], ?::text[], ?::int8[], ?::int8[], ?::text[],
                      ?::int4[])
            WITH ORDINALITY AS i(%s, ord)
      ),
      """
          .formatted(DRAW_ID, INPUT_COLUMNS);

  /**
   * Everything after {@code input} (the rows with their {@code ord} and drawn {@code id}): the
   * repeats (three more array parameters: row {@code ord}, request, tenant), the upsert, and the
   * activity log's counts; one row of counts comes back.
   *
   * <p>Counting once (ADR 0005): a version's row keeps the request whose record inserted it ({@code
   * request_id}, never updated), so that record's arrival is recorded by the row itself — a
   * redelivery of it finds its own request on the row and counts nothing. A record of an already
   * stored version from any other request is a duplicate and counts when its {@code
   * content_arrival} row (request, version) is new. Times travel as epoch milliseconds; {@code
   * ms::float8 / 1000} is the same double as {@code ms / 1000.0}, without numeric arithmetic.
   *
   * <p>Expiry as {@link KeepAlive} keeps it ({@link #storeFromInput}'s {@code %1$s} is the
   * granularity {@code g} of the row {@code c}): a new version is stored {@code g} past the rule, a
   * stored one moves only when it would fall below the rule, then {@code g} past it. So the
   * listings and redeliveries of the next {@code g} move only {@code last_seen_at}, which no index
   * holds, and can be HOT updates.
   */
  private static final String STORE_FROM_INPUT =
      """
      repeat AS (
        SELECT * FROM unnest(?::int4[], ?::text[], ?::text[]) AS r(ord, request_id, tenant_id)
      ),
      resolved AS (
        SELECT i.*,
          CASE WHEN i.prev_ord IS NOT NULL THEN
            coalesce(
              (SELECT c.id FROM platform_content c JOIN input p ON p.ord = i.prev_ord
                WHERE c.source_id = p.source_id AND c.item_id = p.item_id
                  AND c.content_hash = p.content_hash),
              (SELECT p.id FROM input p WHERE p.ord = i.prev_ord))
          ELSE
            (SELECT c.id FROM platform_content c
              WHERE c.source_id = i.source_id AND c.item_id = i.item_id
                AND c.content_hash <> i.content_hash
              ORDER BY c.last_seen_at DESC, c.id DESC LIMIT 1)
          END AS version_of
        FROM input i
      ),
      upserted AS (
        INSERT INTO platform_content AS c
          (id, tenant_id, source_id, connector, item_id, content_hash, version_of, request_id, url,
           title, body, truncated, content_type, published_at, fetched_at, first_seen_at,
           last_seen_at, signal_type, event_at, expires_at, retention_ms, metadata)
        SELECT id, tenant_id, source_id, connector, item_id, content_hash, version_of, request_id,
               url, title, body, truncated, content_type, to_timestamp(published_ms::float8 / 1000),
               to_timestamp(fetched_ms::float8 / 1000), to_timestamp(fetched_ms::float8 / 1000),
               to_timestamp(last_seen_ms::float8 / 1000), signal_type,
               to_timestamp(event_ms::float8 / 1000),
               to_timestamp(expires_ms::float8 / 1000) + %2$s * interval '1 ms',
               expires_ms - fetched_ms, metadata::jsonb
          FROM resolved ORDER BY ord
        ON CONFLICT (source_id, item_id, content_hash)
          DO UPDATE SET last_seen_at = greatest(c.last_seen_at, excluded.last_seen_at),
                        expires_at =
                          CASE WHEN c.expires_at < excluded.last_seen_at + c.retention_ms * interval '1 ms'
                               THEN excluded.last_seen_at + (c.retention_ms + %1$s) * interval '1 ms'
                               ELSE c.expires_at END
        RETURNING (xmax = 0) AS inserted, c.version_of IS NOT NULL AS is_version, c.id,
                  c.request_id AS stored_by, c.source_id, c.item_id, c.content_hash
      ),
      stored AS (
        SELECT i.ord, i.request_id, i.tenant_id, i.source_id, u.id, u.inserted, u.is_version,
               u.stored_by
          FROM upserted u JOIN input i
            ON i.source_id = u.source_id AND i.item_id = u.item_id
           AND i.content_hash = u.content_hash
      ),
      duplicate AS (
        SELECT s.request_id, s.tenant_id, s.source_id, s.id AS content_id
          FROM stored s WHERE NOT s.inserted AND s.request_id <> s.stored_by
        UNION ALL
        SELECT r.request_id, r.tenant_id, s.source_id, s.id
          FROM repeat r JOIN stored s ON s.ord = r.ord WHERE r.request_id <> s.stored_by
      ),
      fresh AS (
        INSERT INTO content_arrival (request_id, content_id, novelty)
        SELECT request_id, content_id, 'duplicate' FROM duplicate
        ON CONFLICT (request_id, content_id) DO NOTHING
        RETURNING request_id, content_id
      ),
      counted AS (
        SELECT s.request_id, s.tenant_id, s.source_id,
               CASE WHEN s.is_version THEN 'changed' ELSE 'new' END AS novelty
          FROM stored s WHERE s.inserted
        UNION ALL
        SELECT d.request_id, d.tenant_id, d.source_id, 'duplicate'
          FROM fresh f JOIN duplicate d
            ON d.request_id = f.request_id AND d.content_id = f.content_id
      ),
      logged AS (
        INSERT INTO activity_log AS l
          (request_id, source_id, tenant_id, items_new, items_changed, items_duplicate,
           items_arrived)
        SELECT request_id, min(source_id), min(tenant_id),
               count(*) FILTER (WHERE novelty = 'new'),
               count(*) FILTER (WHERE novelty = 'changed'),
               count(*) FILTER (WHERE novelty = 'duplicate'),
               count(*)
          FROM counted GROUP BY request_id
        ON CONFLICT (request_id) DO UPDATE SET
          items_new = l.items_new + excluded.items_new,
          items_changed = l.items_changed + excluded.items_changed,
          items_duplicate = l.items_duplicate + excluded.items_duplicate,
          items_arrived = l.items_arrived + excluded.items_arrived,
          -- an outcome without a tenant (an older worker) arrived first: the items name it
          tenant_id = CASE WHEN l.tenant_id = '' THEN excluded.tenant_id ELSE l.tenant_id END
      )
      SELECT count(*) FILTER (WHERE inserted),
             count(*) FILTER (WHERE inserted AND is_version),
             count(*) FILTER (WHERE NOT inserted)
        FROM upserted
      """;

  /**
   * Everything after {@code input}, for a keep-alive granularity cap of {@code capMs} ({@link
   * KeepAlive#cap}).
   */
  static String storeFromInput(long capMs) {
    return STORE_FROM_INPUT.formatted(
        granularity(capMs), granularity(capMs, "expires_ms - fetched_ms"));
  }

  // The content listener may hold some of these rows: a deadlock fails one batch, which is retried.
  // last_seen_at moves exactly (a later 304 finds what the read listed by it; it is in no index);
  // expires_at, which is indexed, only when it would fall below the rule, and then %1$s (the
  // granularity g, as for a 304) past it (KeepAlive.listedExpiresAt): a listing that moves only
  // last_seen_at can be a HOT update. A row neither would move is not written.
  private static final String EXTEND_LISTED =
      """
      UPDATE platform_content c
         SET last_seen_at = greatest(c.last_seen_at, l.at),
             expires_at = CASE WHEN c.expires_at < l.at + c.retention_ms * interval '1 ms'
                               THEN l.at + (c.retention_ms + %1$s) * interval '1 ms'
                               ELSE c.expires_at END
        FROM (SELECT source_id, item_id, content_hash,
                     max(timestamptz 'epoch' + at_ms * interval '1 ms') AS at
                FROM unnest(?::text[], ?::text[], ?::text[], ?::int8[])
                  AS u(source_id, item_id, content_hash, at_ms)
               GROUP BY 1, 2, 3) l
       WHERE c.source_id = l.source_id AND c.item_id = l.item_id
         AND c.content_hash = l.content_hash
         AND (c.last_seen_at < l.at OR c.expires_at < l.at + c.retention_ms * interval '1 ms')
      """;

  private final JdbcTemplate jdbc;
  private final JsonMapper json;
  private final KeepAlive keepAlive;
  private final String extendUnchanged;
  private final String extendListed;
  private final String store;

  @Autowired
  ContentUpserter(JdbcTemplate jdbc, JsonMapper json, SinkProperties props) {
    this(jdbc, json, new KeepAlive(props.sink().keepAliveGranularity()));
  }

  ContentUpserter(JdbcTemplate jdbc, JsonMapper json, KeepAlive keepAlive) {
    this.jdbc = jdbc;
    this.json = json;
    this.keepAlive = keepAlive;
    this.extendUnchanged = extendUnchanged(keepAlive.cap().toMillis());
    this.extendListed = EXTEND_LISTED.formatted(granularity(keepAlive.cap().toMillis()));
    this.store = INPUT_UNNEST + storeFromInput(keepAlive.cap().toMillis());
  }

  /** How this instance's 304s keep versions alive. */
  public KeepAlive keepAlive() {
    return keepAlive;
  }

  /**
   * Stores the batch and counts its records into their requests' activity-log rows, in one
   * statement; the caller's transaction holds it together with whatever else it does.
   */
  public Result upsert(UpsertPlan plan) {
    if (plan.isEmpty()) {
      return new Result(0, 0, plan.collapsed());
    }
    return jdbc.execute((ConnectionCallback<Result>) conn -> run(conn, plan));
  }

  private Result run(Connection conn, UpsertPlan plan) throws SQLException {
    List<Object[]> values = rowValues(plan);
    try (PreparedStatement st = conn.prepareStatement(store)) {
      for (int c = 0; c < INPUT_TYPES.length; c++) {
        st.setObject(c + 1, column(values, c));
      }
      bindRepeats(st, INPUT_TYPES.length + 1, plan);
      return execute(st, plan);
    }
  }

  /**
   * Column {@code c} of the rows as a typed Java array ({@code String[]}, {@code Boolean[]}, {@code
   * Long[]} or {@code Integer[]} for {@link #INPUT_TYPES}' text, bool, int8 and int4), which the
   * driver sends as a binary array: no escaping of every body character on the client and no
   * parsing of an array literal on the server, as {@code createArrayOf}'s text form needs (about a
   * third of the listener threads' CPU before).
   */
  static Object[] column(List<Object[]> rows, int c) {
    int n = rows.size();
    Object[] column =
        switch (INPUT_TYPES[c]) {
          case "text" -> new String[n];
          case "bool" -> new Boolean[n];
          case "int8" -> new Long[n];
          case "int4" -> new Integer[n];
          default -> throw new IllegalStateException("input type " + INPUT_TYPES[c]);
        };
    for (int r = 0; r < n; r++) {
      column[r] = rows.get(r)[c];
    }
    return column;
  }

  /** Binds {@link #STORE_FROM_INPUT}'s three repeat arrays, from parameter {@code first} on. */
  static void bindRepeats(PreparedStatement st, int first, UpsertPlan plan) throws SQLException {
    List<UpsertPlan.Repeat> repeats = plan.repeats();
    st.setObject(first, repeats.stream().map(r -> r.row() + 1).toArray(Integer[]::new));
    st.setObject(
        first + 1, repeats.stream().map(UpsertPlan.Repeat::requestId).toArray(String[]::new));
    st.setObject(
        first + 2, repeats.stream().map(UpsertPlan.Repeat::tenantId).toArray(String[]::new));
  }

  /** Runs a statement ending in {@link #STORE_FROM_INPUT} and reads its row of counts. */
  static Result execute(PreparedStatement st, UpsertPlan plan) throws SQLException {
    try (ResultSet rs = st.executeQuery()) {
      rs.next();
      return new Result(rs.getInt(1), rs.getInt(2), rs.getInt(3) + plan.collapsed());
    }
  }

  /** A version a fetch listed, and when that fetch ended. */
  public record Listing(String sourceId, String itemId, String contentHash, Instant at) {}

  /**
   * The source listed these versions at these times: each one's {@code last_seen_at} moves up to
   * that time, and its {@code expires_at}, when it is earlier than that time + its retention, to
   * that + the keep-alive granularity ({@link KeepAlive#listedExpiresAt}; never backwards).
   * Versions not stored (yet) are not touched, nor are those neither column would move.
   *
   * @return rows written
   */
  public int extendListed(List<Listing> listings) {
    if (listings.isEmpty()) {
      return 0;
    }
    return jdbc.update(
        extendListed,
        ps -> {
          ps.setObject(1, listings.stream().map(Listing::sourceId).toArray(String[]::new));
          ps.setObject(2, listings.stream().map(Listing::itemId).toArray(String[]::new));
          ps.setObject(3, listings.stream().map(Listing::contentHash).toArray(String[]::new));
          ps.setObject(4, listings.stream().map(l -> l.at().toEpochMilli()).toArray(Long[]::new));
        });
  }

  /**
   * The source answered "not modified" to a fetch that began at {@code startedAt}: it still lists
   * what its latest full read (the latest {@code ok} or {@code partial} fetch in the activity log
   * that began before) listed, so those versions are extended as if listed at {@code at} — to
   * within {@link #keepAlive()}'s granularity: a version already fresh enough is not rewritten.
   *
   * @return rows touched
   */
  public int extendUnchangedSinceLastRead(String sourceId, Instant startedAt, Instant at) {
    return extendUnchangedSinceLastRead(List.of(new Unchanged(sourceId, startedAt, at)));
  }

  /** A fetch of a source that began at {@code startedAt} and ended "not modified" at {@code at}. */
  public record Unchanged(String sourceId, Instant startedAt, Instant at) {}

  // One source's 304 at a time: a version is extended once per statement, so a source with two
  // 304s in a poll (a redelivery) takes them one after another, as one statement each. A row is
  // rewritten only as KeepAlive says (%3$s is its granularity g = min(cap, retention / 100) in ms):
  // when the rule would move its expiry, which is then set g past the rule, or when its
  // last_seen_at lags by more than g; every other listed row keeps its row version.
  private static final String EXTEND_UNCHANGED =
      """
      UPDATE platform_content c
         SET last_seen_at = greatest(c.last_seen_at, u.at),
             expires_at = greatest(c.expires_at,
                                   u.at + (c.retention_ms + %3$s) * interval '1 ms')
        FROM (SELECT u.source_id, %1$s AS at,
                     (SELECT max(l.started_at) FROM activity_log l
                       WHERE l.source_id = u.source_id AND l.completed
                         AND l.status IN ('ok', 'partial') AND l.started_at < %2$s) AS last_read
                FROM unnest(?::text[], ?::int8[], ?::int8[]) AS u(source_id, started_us, at_us)) u
       WHERE c.source_id = u.source_id AND c.last_seen_at >= u.last_read
         AND (c.expires_at < u.at + c.retention_ms * interval '1 ms'
              OR c.last_seen_at + %3$s * interval '1 ms' < u.at)
      """;

  /** {@link #EXTEND_UNCHANGED} for a granularity cap of {@code capMs}. */
  static String extendUnchanged(long capMs) {
    return EXTEND_UNCHANGED.formatted(
        micros("u.at_us"), micros("u.started_us"), granularity(capMs));
  }

  /** {@link KeepAlive#granularityMs} in SQL, of the row {@code c}, for a cap of {@code capMs}. */
  private static String granularity(long capMs) {
    return granularity(capMs, "c.retention_ms");
  }

  /** {@link KeepAlive#granularityMs} in SQL of a retention given by {@code retentionMs}. */
  private static String granularity(long capMs, String retentionMs) {
    return "least(" + capMs + "::int8, greatest(" + retentionMs + ", 0) / 100)";
  }

  /**
   * {@link #extendUnchangedSinceLastRead(String, Instant, Instant)} for each of a poll's 304s, in
   * their order, in as few statements as their sources allow: one for every source that answered
   * one 304, then one per further 304 of a source.
   *
   * @return rows touched
   */
  public int extendUnchangedSinceLastRead(List<Unchanged> unchanged) {
    List<List<Unchanged>> rounds = new ArrayList<>();
    Map<String, Integer> seen = new java.util.HashMap<>();
    for (Unchanged u : unchanged) {
      int round = seen.merge(u.sourceId(), 1, Integer::sum) - 1;
      if (round == rounds.size()) {
        rounds.add(new ArrayList<>());
      }
      rounds.get(round).add(u);
    }
    int touched = 0;
    for (List<Unchanged> round : rounds) {
      touched +=
          jdbc.update(
              extendUnchanged,
              ps -> {
                ps.setObject(1, round.stream().map(Unchanged::sourceId).toArray(String[]::new));
                ps.setObject(
                    2, round.stream().map(u -> micros(u.startedAt())).toArray(Long[]::new));
                ps.setObject(3, round.stream().map(u -> micros(u.at())).toArray(Long[]::new));
              });
    }
    return touched;
  }

  /** An instant parameter travelling as microseconds since the epoch, as a {@code timestamptz}. */
  private static String micros(String column) {
    return "(timestamptz 'epoch' + " + column + " * interval '1 microsecond')";
  }

  private static long micros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000);
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
    return metadata.isEmpty() ? "{}" : json.writeValueAsString(metadata);
  }
}
