package io.freshet.scheduler.schedule;

import io.freshet.schemas.avro.SourceStats;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The columns of one {@code sources} row (joined with its tenant's tier) that cadence and outcome
 * handling read. Built from {@link #COLUMNS}.
 */
public record ScheduleRow(
    UUID id,
    String tenantTier,
    String category,
    boolean enabled,
    String configJson,
    String cursorJson,
    Instant nextDueAt,
    Instant leaseUntil,
    long epoch,
    boolean manualRequested,
    Instant retryAfter,
    int consecutiveMisses,
    int consecutiveEmpty,
    int windowFetches,
    Double avgSignalYield,
    String dominantSignalType,
    String typeCountsJson,
    Double medianDaysToEvent,
    Long publishIntervalAvgMs,
    List<Instant> recentPublishedAt,
    Double changeRate,
    Instant statsUpdatedAt,
    Instant claimedWindowEnd,
    String url,
    boolean hasCredentials,
    String movedTo,
    String hintsJson) {

  /** Select list for {@code scheduler.sources s JOIN scheduler.tenants t}. */
  public static final String COLUMNS =
      """
      s.id, t.tier, s.category, s.enabled, s.config_json::text AS config_json,
      s.cursor_json::text AS cursor_json, s.next_due_at, s.lease_until, s.epoch, s.manual_requested,
      s.retry_after, s.consecutive_misses, s.consecutive_empty, s.window_fetches,
      s.avg_signal_yield, s.dominant_signal_type, s.type_counts::text AS type_counts,
      s.median_days_to_event, s.publish_interval_avg_ms, s.recent_published_at, s.change_rate,
      s.stats_updated_at, s.claimed_window_end, s.url,
      s.credentials_encrypted IS NOT NULL AS has_credentials, s.moved_to,
      s.hints::text AS hints_json
      """;

  /**
   * The row as it reads back after {@code stats} are stored on it ({@link
   * ScheduleBatches#storeStats}), so that its due time can be computed before the one statement
   * that writes both: every stats column the same value, type and text a re-read gives. {@code
   * stats_updated_at} travels as microseconds, cut ({@link #micros}); {@code recent_published_at}
   * as an array literal of ISO texts, which PostgreSQL rounds ({@link #readFromText}) — as they did
   * before the due time joined the statement; {@code type_counts} is the text of the {@code jsonb}
   * ({@link #jsonbText}). The due time is left as it is ({@link #withNextDueAt}).
   */
  public ScheduleRow withStats(SourceStats stats) {
    return new ScheduleRow(
        id,
        tenantTier,
        category,
        enabled,
        configJson,
        cursorJson,
        nextDueAt,
        leaseUntil,
        epoch,
        manualRequested,
        retryAfter,
        consecutiveMisses,
        stats.getConsecutiveEmpty(),
        stats.getWindowFetches(),
        stats.getAvgSignalYield(),
        stats.getDominantSignalType() == null ? null : stats.getDominantSignalType().name(),
        jsonbText(stats.getTypeCounts()),
        stats.getMedianDaysToEvent(),
        stats.getPublishIntervalAvg(),
        stats.getRecentPublishedAt().stream().map(ScheduleRow::readFromText).toList(),
        stats.getChangeRate(),
        micros(stats.getUpdatedAt()),
        claimedWindowEnd,
        url,
        hasCredentials,
        movedTo,
        hintsJson);
  }

  /** The row with {@code next_due_at} as it reads back after {@code due} is stored. */
  public ScheduleRow withNextDueAt(Instant due) {
    return new ScheduleRow(
        id,
        tenantTier,
        category,
        enabled,
        configJson,
        cursorJson,
        micros(due),
        leaseUntil,
        epoch,
        manualRequested,
        retryAfter,
        consecutiveMisses,
        consecutiveEmpty,
        windowFetches,
        avgSignalYield,
        dominantSignalType,
        typeCountsJson,
        medianDaysToEvent,
        publishIntervalAvgMs,
        recentPublishedAt,
        changeRate,
        statsUpdatedAt,
        claimedWindowEnd,
        url,
        hasCredentials,
        movedTo,
        hintsJson);
  }

  /** An instant as {@code timestamptz} keeps it: to the microsecond, the rest cut. */
  static Instant micros(Instant instant) {
    return instant == null ? null : instant.truncatedTo(ChronoUnit.MICROS);
  }

  /**
   * An instant as {@code timestamptz} reads it from {@link Instant#toString}: PostgreSQL rounds the
   * fraction of a second to the nearest microsecond, as {@code rint(strtod(fraction) * 1e6)} (ties
   * to even, on the double nearest the decimal fraction), which may carry into the next second.
   */
  static Instant readFromText(Instant instant) {
    int nanos = instant.getNano();
    if (nanos % 1_000 == 0) {
      return instant;
    }
    double fraction = Double.parseDouble("0." + String.format("%09d", nanos));
    long micros = (long) Math.rint(fraction * 1_000_000);
    return Instant.ofEpochSecond(instant.getEpochSecond(), micros * 1_000);
  }

  /**
   * The text PostgreSQL gives back for {@code counts} stored as {@code jsonb}: keys shorter in
   * UTF-8 bytes first, then by their bytes; {@code ", "} and {@code ": "} between; strings escaped
   * as its {@code escape_json} does (the seven short escapes; other control characters as a
   * backslash, {@code u} and four lowercase hex digits; everything else as is).
   */
  static String jsonbText(Map<String, Long> counts) {
    if (counts == null) {
      return "null";
    }
    List<String> keys = new ArrayList<>(counts.keySet());
    keys.sort(
        (a, b) -> {
          byte[] x = a.getBytes(StandardCharsets.UTF_8);
          byte[] y = b.getBytes(StandardCharsets.UTF_8);
          return x.length != y.length
              ? Integer.compare(x.length, y.length)
              : Arrays.compareUnsigned(x, y);
        });
    StringBuilder out = new StringBuilder("{");
    for (String key : keys) {
      if (out.length() > 1) {
        out.append(", ");
      }
      escapeJson(out, key);
      Long value = counts.get(key);
      out.append(": ").append(value == null ? "null" : value.toString());
    }
    return out.append('}').toString();
  }

  private static void escapeJson(StringBuilder out, String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < ' ') {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** Maps a row selected with {@link #COLUMNS}. */
  public static ScheduleRow map(ResultSet rs, int rowNum) throws SQLException {
    return new ScheduleRow(
        rs.getObject("id", UUID.class),
        rs.getString("tier"),
        rs.getString("category"),
        rs.getBoolean("enabled"),
        rs.getString("config_json"),
        rs.getString("cursor_json"),
        instant(rs, "next_due_at"),
        instant(rs, "lease_until"),
        rs.getLong("epoch"),
        rs.getBoolean("manual_requested"),
        instant(rs, "retry_after"),
        rs.getInt("consecutive_misses"),
        rs.getInt("consecutive_empty"),
        rs.getInt("window_fetches"),
        nullableDouble(rs, "avg_signal_yield"),
        rs.getString("dominant_signal_type"),
        rs.getString("type_counts"),
        nullableDouble(rs, "median_days_to_event"),
        nullableLong(rs, "publish_interval_avg_ms"),
        instants(rs.getArray("recent_published_at")),
        nullableDouble(rs, "change_rate"),
        instant(rs, "stats_updated_at"),
        instant(rs, "claimed_window_end"),
        rs.getString("url"),
        rs.getBoolean("has_credentials"),
        rs.getString("moved_to"),
        rs.getString("hints_json"));
  }

  /** A nullable {@code timestamptz} column as an instant. */
  public static Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp ts = rs.getTimestamp(column);
    return ts == null ? null : ts.toInstant();
  }

  private static Double nullableDouble(ResultSet rs, String column) throws SQLException {
    double v = rs.getDouble(column);
    return rs.wasNull() ? null : v;
  }

  private static Long nullableLong(ResultSet rs, String column) throws SQLException {
    long v = rs.getLong(column);
    return rs.wasNull() ? null : v;
  }

  private static List<Instant> instants(Array array) throws SQLException {
    if (array == null) {
      return List.of();
    }
    List<Instant> out = new ArrayList<>();
    for (Object o : (Object[]) array.getArray()) {
      if (o instanceof Timestamp ts) {
        out.add(ts.toInstant());
      }
    }
    return out;
  }
}
