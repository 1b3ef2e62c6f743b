package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link ScheduleRow#withStats} against what PostgreSQL stores: the row computed in Java before the
 * write is the row read back after the statement that stored stats alone, with its own rounding of
 * instants, {@code jsonb} key order and escapes — so a due time computed from the Java row is the
 * one a re-read would give.
 */
class ScheduleRowStatsIT extends SchedulerItSupport {

  /**
   * The stats statement before the due time joined it (issue 24), verbatim, with its parameters as
   * it made them: the reference for what storing stats means.
   */
  private static final String FORMER_STORE_STATS =
      """
      UPDATE scheduler.sources s SET
        window_fetches = u.window_fetches, avg_signal_yield = u.yield,
        dominant_signal_type = u.dominant, type_counts = u.type_counts::jsonb,
        median_days_to_event = u.median, publish_interval_avg_ms = u.interval_ms,
        recent_published_at = u.recent::timestamptz[], change_rate = u.change_rate,
        consecutive_empty = u.empty,
        stats_updated_at = (timestamptz 'epoch' + u.updated_at * interval '1 microsecond')
      FROM unnest(?::uuid[], ?::int4[], ?::float8[], ?::text[], ?::text[], ?::float8[], ?::int8[],
                  ?::text[], ?::float8[], ?::int4[], ?::int8[])
        AS u(id, window_fetches, yield, dominant, type_counts, median, interval_ms, recent,
             change_rate, empty, updated_at),
        scheduler.tenants t
      WHERE s.id = u.id AND t.id = s.tenant_id
        AND (s.stats_updated_at IS NULL
             OR s.stats_updated_at <= (timestamptz 'epoch' + u.updated_at * interval '1 microsecond'))
      RETURNING
      """
          + ScheduleRow.COLUMNS;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Autowired JdbcTemplate jdbcTemplate;
  @Autowired ScheduleBatches schedule;

  @Test
  void theRowComputedInJavaIsTheRowThatStoringTheStatsAloneReadsBack() {
    Map<String, Long> awkward = new LinkedHashMap<>();
    awkward.put("event", 12L);
    awkward.put("zz", 2L);
    awkward.put("a", 1L);
    awkward.put("é", 3L); // two bytes, as long as "zz" and after it byte-wise
    awkward.put("Zz", -3L);
    awkward.put("b\"q\\/", 4L);
    awkward.put("tab\t\n\r\b\f", 5L);
    awkward.put("\u0001\u001f", 6L);
    awkward.put("日本", Long.MAX_VALUE);
    awkward.put("", 0L);
    List<Instant> instants =
        List.of(
            Instant.parse("2026-11-20T10:00:00Z"),
            Instant.parse("2026-11-20T10:00:00.123Z"),
            Instant.parse("2026-11-20T10:00:00.123456Z"),
            Instant.parse("2026-11-20T10:00:00.123456789Z"),
            Instant.parse("2026-11-20T10:00:00.000000500Z"),
            Instant.parse("2026-11-20T10:00:00.000001500Z"),
            Instant.parse("2026-11-20T10:00:00.000002500Z"),
            Instant.parse("2026-11-20T10:00:00.123456500Z"),
            Instant.parse("2026-11-20T10:00:59.999999500Z"),
            Instant.parse("2026-11-20T10:00:59.999999999Z"),
            Instant.parse("1960-01-01T00:00:00.000000700Z"));
    List<SourceStats> cases =
        List.of(
            stats(Instant.parse("2026-11-20T10:00:00.123456789Z"))
                .setTypeCounts(awkward)
                .setRecentPublishedAt(instants)
                .build(),
            stats(Instant.parse("2026-11-20T10:00:00.999Z")).build(),
            stats(Instant.parse("2026-11-20T10:00:00.000000999Z"))
                .setDominantSignalType(null)
                .setMedianDaysToEvent(null)
                .setPublishIntervalAvg(null)
                .setTypeCounts(Map.of())
                .setRecentPublishedAt(List.of())
                .setAvgSignalYield(0.1 + 0.2)
                .setChangeRate(-0.0)
                .build());

    for (SourceStats stats : cases) {
      UUID id = source().insert();
      ScheduleRow before = select(id);

      ScheduleRow stored = storeTheFormerWay(id, stats);

      assertThat(before.withStats(stats)).isEqualTo(stored).isEqualTo(select(id));
      assertThat(before.withStats(stats)).isNotEqualTo(before);
    }
  }

  @Test
  void theNewStatementStoresTheJavaRowAsItIs() {
    UUID id = source().insert();
    ScheduleRow before = select(id);
    Instant now = Instant.parse("2026-11-20T11:00:00.987654321Z");
    ScheduleRow after =
        before
            .withStats(
                stats(Instant.parse("2026-11-20T10:00:00.123456789Z"))
                    .setRecentPublishedAt(
                        List.of(
                            Instant.parse("2026-11-20T09:00:00.000002500Z"),
                            Instant.parse("2026-11-20T08:59:59.999999999Z")))
                    .build())
            .withNextDueAt(Instant.parse("2026-11-20T12:00:00.000000999Z"));

    schedule.storeStats(List.of(new ScheduleBatches.StatsWrite(after, true)), now);

    assertThat(select(id)).isEqualTo(after);
    assertThat(instantColumn(id, "updated_at"))
        .isEqualTo(Instant.parse("2026-11-20T11:00:00.987654Z"));
  }

  private static SourceStats.Builder stats(Instant updatedAt) {
    return SourceStats.newBuilder()
        .setSourceId(UUID.randomUUID().toString())
        .setWindowFetches(10)
        .setAvgSignalYield(1.5)
        .setDominantSignalType(SignalType.event)
        .setTypeCounts(Map.of("event", 12L, "article", 3L))
        .setMedianDaysToEvent(4.25)
        .setRecentPublishedAt(List.of(updatedAt.minusSeconds(1200), updatedAt.minusSeconds(2400)))
        .setPublishIntervalAvg(20 * 60_000L)
        .setChangeRate(3.0)
        .setConsecutiveEmpty(2)
        .setUpdatedAt(updatedAt);
  }

  private ScheduleRow select(UUID id) {
    return jdbcTemplate.queryForObject(
        "SELECT "
            + ScheduleRow.COLUMNS
            + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
            + " WHERE s.id = ?",
        ScheduleRow::map,
        id);
  }

  /** The parameters exactly as the former statement's caller made them. */
  private ScheduleRow storeTheFormerWay(UUID id, SourceStats s) {
    StringBuilder recent = new StringBuilder("{");
    for (Instant i : s.getRecentPublishedAt()) {
      if (recent.length() > 1) {
        recent.append(',');
      }
      recent.append('"').append(i).append('"');
    }
    recent.append('}');
    Object[] values = {
      new String[] {id.toString()},
      new Integer[] {s.getWindowFetches()},
      new Double[] {s.getAvgSignalYield()},
      new String[] {s.getDominantSignalType() == null ? null : s.getDominantSignalType().name()},
      new String[] {JSON.writeValueAsString(s.getTypeCounts())},
      new Double[] {s.getMedianDaysToEvent()},
      new Long[] {s.getPublishIntervalAvg()},
      new String[] {recent.toString()},
      new Double[] {s.getChangeRate()},
      new Integer[] {s.getConsecutiveEmpty()},
      new Long[] {ScheduleBatches.micros(s.getUpdatedAt())}
    };
    List<ScheduleRow> rows =
        jdbcTemplate.query(
            FORMER_STORE_STATS, (PreparedStatement ps) -> bind(ps, values), ScheduleRow::map);
    assertThat(rows).hasSize(1);
    return rows.getFirst();
  }

  private static void bind(PreparedStatement ps, Object[] values) throws SQLException {
    for (int i = 0; i < values.length; i++) {
      ps.setObject(i + 1, values[i]);
    }
  }
}
