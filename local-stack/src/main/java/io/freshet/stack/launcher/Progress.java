package io.freshet.stack.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The live figures, read from the system of record (the scheduler's and the content store's
 * tables): sources by state, due backlog, fetches in the last minute by status, new vs duplicate
 * items, errors by kind, the distribution of current intervals (in the cadence model's time when
 * the scheduler runs on the demo's clock, and said so), the slowest hosts.
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
      double scale = cadenceScale();
      if (scale != 1.0) {
        out.put("cadence_clock", clockNote(scale));
      }
      out.put(
          scale == 1.0 ? "current_intervals" : "current_intervals_model_time",
          pairs(c, intervalsSql(scale)));
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

  /**
   * The scale the scheduler's cadence runs at: the one the running {@code up} recorded next to the
   * demo web's origin, else {@code FRESHET_DEMO_SCALE} (so {@code status} from a shell with another
   * setting still reads the intervals right).
   */
  double cadenceScale() {
    Path recorded = s.home().resolve("demo-web/scale");
    try {
      if (Files.exists(recorded)) {
        return Double.parseDouble(Files.readString(recorded).trim());
      }
    } catch (IOException | NumberFormatException e) {
      // fall through to the setting
    }
    return s.demoScale();
  }

  static String clockNote(double scale) {
    return "model time = wall time x "
        + number(scale)
        + " (the demo's trace time; a model day is "
        + duration(86_400 / scale)
        + " of wall time); failure back-off and Retry-After are wall time";
  }

  /** The bucket limits of the interval distribution, model seconds, with their names. */
  private static final long[] LIMITS = {15 * 60, 3_600, 6 * 3_600, 24 * 3_600};

  private static final String[] NAMES = {"15m", "1h", "6h", "24h"};

  /**
   * Current intervals ({@code next_due_at − last_fetch_at}) of the sources that are not failing (a
   * failure's back-off is wall time, and failing sources are counted under errors), in model time
   * (wall × {@code scale}), so the buckets are the cadence's own 15 min – 24 h range; each bucket
   * also says its wall-time span.
   */
  static String intervalsSql(double scale) {
    StringBuilder cases = new StringBuilder();
    for (int k = 0; k <= LIMITS.length; k++) {
      String label = bucketLabel(k, scale).replace("'", "''");
      if (k < LIMITS.length) {
        cases
            .append(" WHEN gap < ")
            .append(LIMITS[k])
            .append(" THEN ")
            .append(k)
            .append(" || '")
            .append(label)
            .append("'");
      } else {
        cases.append(" ELSE ").append(k).append(" || '").append(label).append("'");
      }
    }
    return """
        WITH i AS (SELECT extract(epoch FROM next_due_at - (cursor_json->>'last_fetch_at')::timestamptz) * %s AS gap
                   FROM scheduler.sources WHERE cursor_json ? 'last_fetch_at' AND consecutive_misses = 0),
             b AS (SELECT CASE%s END AS bucket FROM i)
        SELECT substr(bucket, 2), count(*) FROM b GROUP BY bucket ORDER BY bucket"""
        .formatted(Double.toString(scale), cases);
  }

  /** E.g. "15m-1h (wall 0.6s-2.5s)" at 1440; without the wall part at scale 1. */
  static String bucketLabel(int k, double scale) {
    String model =
        k == 0
            ? "<" + NAMES[0]
            : k == LIMITS.length ? ">=" + NAMES[k - 1] : NAMES[k - 1] + "-" + NAMES[k];
    if (scale == 1.0) {
      return model;
    }
    String wall =
        k == 0
            ? "<" + duration(LIMITS[0] / scale)
            : k == LIMITS.length
                ? ">=" + duration(LIMITS[k - 1] / scale)
                : duration(LIMITS[k - 1] / scale) + "-" + duration(LIMITS[k] / scale);
    return model + " (wall " + wall + ")";
  }

  /** A span for people: 0.6s, 15s, 24min, 1.5h. */
  static String duration(double seconds) {
    if (seconds < 60) {
      return number(Math.round(seconds * 10) / 10.0) + "s";
    }
    if (seconds < 3_600) {
      return number(Math.round(seconds / 6) / 10.0) + "min";
    }
    return number(Math.round(seconds / 360) / 10.0) + "h";
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(Locale.ROOT, "%s", v);
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
