package io.freshet.sink.api;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The read API's queries. Lists are keyset-paged on an indexed order: content by {@code
 * (fetched_at, id)} ascending (catching up reads forward), activity by {@code (logged_at,
 * request_id)} descending (newest first). Each query fetches one row more than the page to know
 * whether there is a next page.
 *
 * <p>Every query takes the tenant the caller's key acts for ({@code tenant}; null for a key that
 * acts for every tenant) and puts it in its {@code WHERE}: another tenant's rows are never read, so
 * they answer exactly as rows that do not exist (a 404 reveals nothing, content ids being
 * sequential).
 */
@Repository
class ContentReader {

  private static final String CONTENT_COLUMNS =
      """
      c.id, c.tenant_id, c.source_id, c.connector, c.item_id, c.content_hash, c.version_of,
      c.request_id, c.url, c.title, c.body, c.truncated, c.content_type, c.published_at,
      c.fetched_at, c.first_seen_at, c.last_seen_at, c.signal_type, c.event_at, c.expires_at,
      c.metadata::text AS metadata,
      (SELECT json_agg(json_build_object('reason', r.reason, 'ref', r.ref,
                                         'marked_at', r.marked_at, 'marked_by', r.key_id)
                       ORDER BY r.marked_at)::text
         FROM content_retention r WHERE r.content_id = c.id) AS marks
      """;

  /** A time window, either end optional: {@code from} inclusive, {@code to} exclusive. */
  record Window(Instant from, Instant to) {}

  private final JdbcClient jdbc;
  private final JsonMapper json;

  ContentReader(JdbcClient jdbc, JsonMapper json) {
    this.jdbc = jdbc;
    this.json = json;
  }

  Optional<ContentView> byId(long id, String tenant) {
    return jdbc.sql(
            "SELECT "
                + CONTENT_COLUMNS
                + " FROM platform_content c WHERE c.id = :id"
                + (tenant == null ? "" : " AND c.tenant_id = :tenant"))
        .params(scoped(Map.of("id", id), tenant))
        .query(this::content)
        .optional();
  }

  /** {@code params} with {@code tenant} under {@code :tenant} when the query is scoped. */
  private static Map<String, Object> scoped(Map<String, Object> params, String tenant) {
    Map<String, Object> out = new LinkedHashMap<>(params);
    if (tenant != null) {
      out.put("tenant", tenant);
    }
    return out;
  }

  /** Every version of the item {@code id} is a version of, oldest first; empty if id is unknown. */
  List<ContentView> versionsOf(long id, String tenant) {
    return jdbc.sql(
            "SELECT "
                + CONTENT_COLUMNS
                + """
                 FROM platform_content c
                 JOIN platform_content k ON k.source_id = c.source_id AND k.item_id = c.item_id
                WHERE k.id = :id
                """
                + (tenant == null ? "" : " AND k.tenant_id = :tenant AND c.tenant_id = :tenant")
                + " ORDER BY c.first_seen_at, c.id")
        .params(scoped(Map.of("id", id), tenant))
        .query(this::content)
        .list();
  }

  /** Has the sink stored content or activity of this source (both probes use an index)? */
  boolean knowsSource(String sourceId, String tenant) {
    String scope = tenant == null ? "" : " AND tenant_id = :tenant";
    return jdbc.sql(
            "SELECT EXISTS (SELECT 1 FROM platform_content WHERE source_id = :s"
                + scope
                + ") OR EXISTS (SELECT 1 FROM activity_log WHERE source_id = :s"
                + scope
                + ")")
        .params(scoped(Map.of("s", sourceId), tenant))
        .query(Boolean.class)
        .single();
  }

  /** Has the sink stored content of this tenant (of any signal type)? */
  boolean knowsTenant(String tenantId) {
    return jdbc.sql("SELECT EXISTS (SELECT 1 FROM platform_content WHERE tenant_id = :t)")
        .param("t", tenantId)
        .query(Boolean.class)
        .single();
  }

  Page<ContentView> bySource(
      String sourceId, String tenant, Window window, PageCursor after, int limit) {
    Map<String, Object> params = scoped(Map.of("source", sourceId), tenant);
    return contentPage(
        "c.source_id = :source" + (tenant == null ? "" : " AND c.tenant_id = :tenant"),
        params,
        window,
        after,
        limit);
  }

  Page<ContentView> byTenantAndSignal(
      String tenantId, String signalType, Window window, PageCursor after, int limit) {
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("tenant", tenantId);
    params.put("signal", signalType);
    return contentPage(
        "c.tenant_id = :tenant AND c.signal_type = :signal", params, window, after, limit);
  }

  Page<ActivityView> activity(String sourceId, String tenant, PageCursor before, int limit) {
    var sql =
        new StringBuilder(
            """
            SELECT l.*, l.cursor_used::text AS cursor_used_text,
                   l.cursor_after::text AS cursor_after_text
              FROM activity_log l WHERE l.source_id = :source
            """);
    Map<String, Object> params = scoped(Map.of("source", sourceId), tenant);
    if (tenant != null) {
      sql.append(" AND l.tenant_id = :tenant");
    }
    if (before != null) {
      sql.append(" AND (l.logged_at, l.request_id) < (:at, :key)");
      params.put("at", timestamp(before.at()));
      params.put("key", before.key());
    }
    sql.append(" ORDER BY l.logged_at DESC, l.request_id DESC LIMIT :limit");
    params.put("limit", limit + 1);
    List<ActivityView> rows = jdbc.sql(sql.toString()).params(params).query(this::activity).list();
    return page(rows, limit, v -> new PageCursor(v.loggedAt(), v.requestId()));
  }

  private Page<ContentView> contentPage(
      String filter, Map<String, Object> params, Window window, PageCursor after, int limit) {
    var sql =
        new StringBuilder("SELECT ")
            .append(CONTENT_COLUMNS)
            .append(" FROM platform_content c WHERE ")
            .append(filter);
    if (window.from() != null) {
      sql.append(" AND c.fetched_at >= :from");
      params.put("from", timestamp(window.from()));
    }
    if (window.to() != null) {
      sql.append(" AND c.fetched_at < :to");
      params.put("to", timestamp(window.to()));
    }
    if (after != null) {
      sql.append(" AND (c.fetched_at, c.id) > (:at, :id)");
      params.put("at", timestamp(after.at()));
      params.put("id", after.id());
    }
    sql.append(" ORDER BY c.fetched_at, c.id LIMIT :limit");
    params.put("limit", limit + 1);
    List<ContentView> rows = jdbc.sql(sql.toString()).params(params).query(this::content).list();
    return page(rows, limit, v -> new PageCursor(v.fetchedAt(), Long.toString(v.id())));
  }

  private static <T> Page<T> page(
      List<T> rows, int limit, java.util.function.Function<T, PageCursor> cursorOf) {
    if (rows.size() <= limit) {
      return new Page<>(rows, null);
    }
    List<T> items = new ArrayList<>(rows.subList(0, limit));
    return new Page<>(items, cursorOf.apply(items.get(limit - 1)).encode());
  }

  private ContentView content(ResultSet rs, int row) throws SQLException {
    List<ContentView.Mark> marks = new ArrayList<>();
    JsonNode marksJson = readJson(rs.getString("marks"));
    if (marksJson != null) {
      for (JsonNode m : marksJson) {
        marks.add(
            new ContentView.Mark(
                m.get("reason").asString(),
                m.get("ref").asString(),
                OffsetDateTime.parse(m.get("marked_at").asString()).toInstant(),
                m.get("marked_by") == null || m.get("marked_by").isNull()
                    ? null
                    : m.get("marked_by").asString()));
      }
    }
    Long versionOf = (Long) rs.getObject("version_of");
    return new ContentView(
        rs.getLong("id"),
        rs.getString("tenant_id"),
        rs.getString("source_id"),
        rs.getString("connector"),
        rs.getString("item_id"),
        rs.getString("content_hash"),
        versionOf,
        rs.getString("request_id"),
        rs.getString("url"),
        rs.getString("title"),
        rs.getString("body"),
        rs.getBoolean("truncated"),
        rs.getString("content_type"),
        instant(rs, "published_at"),
        instant(rs, "fetched_at"),
        instant(rs, "first_seen_at"),
        instant(rs, "last_seen_at"),
        rs.getString("signal_type"),
        instant(rs, "event_at"),
        instant(rs, "expires_at"),
        readJson(rs.getString("metadata")),
        marks);
  }

  private ActivityView activity(ResultSet rs, int row) throws SQLException {
    Integer emitted = integer(rs, "items_emitted");
    boolean outcomeIn = rs.getBoolean("completed");
    int arrived = rs.getInt("items_arrived");
    return new ActivityView(
        rs.getString("request_id"),
        rs.getString("source_id"),
        rs.getString("tenant_id"),
        (Long) rs.getObject("epoch"),
        rs.getString("status"),
        integer(rs, "http_status"),
        rs.getString("error_kind"),
        rs.getString("errors"),
        integer(rs, "attempts"),
        instant(rs, "started_at"),
        instant(rs, "finished_at"),
        (Long) rs.getObject("bytes"),
        integer(rs, "items_fetched"),
        emitted,
        integer(rs, "items_unchanged"),
        rs.getInt("items_new"),
        rs.getInt("items_changed"),
        rs.getInt("items_duplicate"),
        arrived,
        CursorRedactor.redact(readJson(rs.getString("cursor_used_text"))),
        CursorRedactor.redact(readJson(rs.getString("cursor_after_text"))),
        instant(rs, "logged_at"),
        outcomeIn,
        outcomeIn && arrived >= (emitted == null ? 0 : emitted));
  }

  private JsonNode readJson(String text) {
    return text == null ? null : json.readTree(text);
  }

  private static Integer integer(ResultSet rs, String column) throws SQLException {
    int v = rs.getInt(column);
    return rs.wasNull() ? null : v;
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  private static OffsetDateTime timestamp(Instant t) {
    return OffsetDateTime.ofInstant(t, java.time.ZoneOffset.UTC);
  }
}
