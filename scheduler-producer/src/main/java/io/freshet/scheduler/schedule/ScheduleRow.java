package io.freshet.scheduler.schedule;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
