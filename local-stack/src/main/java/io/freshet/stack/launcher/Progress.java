package io.freshet.stack.launcher;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live figures, read from the system of record (the scheduler's and the content store's
 * tables): sources by state, due backlog, fetches in the last minute by status, new vs duplicate
 * items, errors by kind, the distribution of current intervals, the slowest hosts.
 */
public final class Progress {

  private final StackSettings s;

  public Progress(StackSettings settings) {
    this.s = settings;
  }

  /** Named sections, each a map of figures; a section whose tables are missing says so. */
  public Map<String, Object> figures() {
    Map<String, Object> out = new LinkedHashMap<>();
    try (Connection c = DriverManager.getConnection(s.jdbcUrl("freshet"), "postgres", "postgres")) {
      out.put(
          "sources",
          row(
              c,
              """
          SELECT count(*) AS total,
                 count(*) FILTER (WHERE NOT enabled) AS disabled,
                 count(*) FILTER (WHERE last_outcome_at IS NULL AND enabled) AS never_fetched,
                 count(*) FILTER (WHERE lease_until > now()) AS in_flight,
                 count(*) FILTER (WHERE enabled AND next_due_at <= now()
                                  AND (lease_until IS NULL OR lease_until <= now())) AS due_backlog,
                 count(*) FILTER (WHERE consecutive_misses > 0) AS failing
          FROM scheduler.sources"""));
      out.put(
          "fetches_last_minute_by_status",
          pairs(
              c,
              """
          SELECT coalesce(status, 'pending'), count(*) FROM content.activity_log
          WHERE finished_at > now() - interval '1 minute' OR (finished_at IS NULL AND started_at > now() - interval '1 minute')
          GROUP BY 1 ORDER BY 2 DESC"""));
      out.put(
          "items",
          row(
              c,
              """
          SELECT (SELECT count(*) FROM content.platform_content) AS stored_versions,
                 coalesce(sum(items_new), 0) AS new_last_minute,
                 coalesce(sum(items_changed), 0) AS changed_last_minute,
                 coalesce(sum(items_duplicate), 0) AS duplicate_last_minute
          FROM content.activity_log WHERE finished_at > now() - interval '1 minute'"""));
      out.put(
          "errors_by_kind",
          pairs(
              c,
              """
          SELECT coalesce(last_status, '?') || ': ' || left(split_part(coalesce(last_error, ''), ':', 1), 40), count(*)
          FROM scheduler.sources WHERE consecutive_misses > 0 GROUP BY 1 ORDER BY 2 DESC LIMIT 6"""));
      // In the cadence model's time (the demo's trace time: wall x scale, as the scheduler runs it
      // under `up`), so the buckets are the cadence's own 15 min - 24 h range.
      out.put(
          "current_intervals_model_time",
          pairs(
              c,
              """
          WITH i AS (SELECT (next_due_at - (cursor_json->>'last_fetch_at')::timestamptz) * %s AS gap
                     FROM scheduler.sources WHERE cursor_json ? 'last_fetch_at')
          SELECT CASE WHEN gap < interval '15 minutes' THEN 'a <15m'
                      WHEN gap < interval '1 hour' THEN 'b 15m-1h'
                      WHEN gap < interval '6 hours' THEN 'c 1h-6h'
                      WHEN gap < interval '24 hours' THEN 'd 6h-24h'
                      ELSE 'e >=24h' END, count(*)
          FROM i GROUP BY 1 ORDER BY 1"""
                  .formatted(Double.toString(s.demoScale()))));
      out.put(
          "slowest_hosts_ms",
          pairs(
              c,
              """
          SELECT s.host, round(avg(extract(epoch FROM a.finished_at - a.started_at) * 1000))
          FROM content.activity_log a JOIN scheduler.sources s ON s.id::text = a.source_id
          WHERE a.finished_at > now() - interval '10 minutes'
          GROUP BY s.host ORDER BY 2 DESC LIMIT 5"""));
    } catch (SQLException e) {
      out.put("error", "PostgreSQL on port " + s.postgresPort() + " unreachable: " + firstLine(e));
    }
    return out;
  }

  private static Object row(Connection c, String sql) {
    try (var st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      Map<String, Object> m = new LinkedHashMap<>();
      if (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          m.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
        }
      }
      return m;
    } catch (SQLException e) {
      return "n/a (" + firstLine(e) + ")";
    }
  }

  private static Object pairs(Connection c, String sql) {
    try (var st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      Map<String, Object> m = new LinkedHashMap<>();
      while (rs.next()) {
        m.put(rs.getString(1), rs.getObject(2));
      }
      return m;
    } catch (SQLException e) {
      return "n/a (" + firstLine(e) + ")";
    }
  }

  private static String firstLine(SQLException e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  public static String json(Map<String, Object> figures) {
    return JsonMapper.builder().build().writeValueAsString(figures);
  }

  /** The figures as aligned text lines. */
  public static List<String> text(Map<String, Object> figures) {
    List<String> lines = new ArrayList<>();
    figures.forEach(
        (k, v) ->
            lines.add(
                String.format(
                    "%-30s %s",
                    k.replace('_', ' '), v instanceof Map<?, ?> m && m.isEmpty() ? "none" : v)));
    return lines;
  }
}
