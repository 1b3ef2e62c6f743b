package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.SourceStats;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The row as it reads back after stats are stored, computed in Java (ScheduleRowStatsIT checks the
 * same against PostgreSQL).
 */
class ScheduleRowTest {

  @Test
  void typeCountsAreTheJsonbTextShorterKeysFirstThenByTheirBytes() {
    Map<String, Long> counts = new LinkedHashMap<>();
    counts.put("event", 12L);
    counts.put("zz", 2L);
    counts.put("é", 3L);
    counts.put("a", -1L);
    counts.put("", 0L);
    counts.put("q\"\\\t\u0001", 7L);

    assertThat(ScheduleRow.jsonbText(counts))
        .isEqualTo(
            "{\"\": 0, \"a\": -1, \"zz\": 2, \"é\": 3, \"event\": 12, \"q\\\"\\\\\\t\\u0001\": 7}");
    assertThat(ScheduleRow.jsonbText(Map.of())).isEqualTo("{}");
  }

  @Test
  void anInstantReadFromItsTextIsRoundedToTheMicrosecondAndMayCarry() {
    assertThat(ScheduleRow.readFromText(Instant.parse("2026-11-20T10:00:00.123Z")))
        .isEqualTo(Instant.parse("2026-11-20T10:00:00.123Z"));
    assertThat(ScheduleRow.readFromText(Instant.parse("2026-11-20T10:00:00.123456789Z")))
        .isEqualTo(Instant.parse("2026-11-20T10:00:00.123457Z"));
    assertThat(ScheduleRow.readFromText(Instant.parse("2026-11-20T10:00:59.999999999Z")))
        .isEqualTo(Instant.parse("2026-11-20T10:01:00Z"));
    assertThat(ScheduleRow.micros(Instant.parse("2026-11-20T10:00:59.999999999Z")))
        .isEqualTo(Instant.parse("2026-11-20T10:00:59.999999Z"));
  }

  @Test
  void storingStatsChangesTheStatsColumnsOnlyAndTheDueTimeIsStoredToTheMicrosecond() {
    ScheduleRow row = row();
    SourceStats stats =
        SourceStats.newBuilder()
            .setSourceId(row.id().toString())
            .setWindowFetches(7)
            .setAvgSignalYield(0.5)
            .setDominantSignalType(null)
            .setTypeCounts(Map.of("event", 2L))
            .setRecentPublishedAt(List.of(Instant.parse("2026-11-20T09:00:00.000000001Z")))
            .setPublishIntervalAvg(60_000L)
            .setChangeRate(2.0)
            .setConsecutiveEmpty(4)
            .setConsecutiveMisses(9)
            .setUpdatedAt(Instant.parse("2026-11-20T10:00:00.000000999Z"))
            .build();

    ScheduleRow after = row.withStats(stats);

    assertThat(after.windowFetches()).isEqualTo(7);
    assertThat(after.avgSignalYield()).isEqualTo(0.5);
    assertThat(after.dominantSignalType()).isNull();
    assertThat(after.typeCountsJson()).isEqualTo("{\"event\": 2}");
    assertThat(after.medianDaysToEvent()).isNull();
    assertThat(after.publishIntervalAvgMs()).isEqualTo(60_000L);
    assertThat(after.recentPublishedAt()).containsExactly(Instant.parse("2026-11-20T09:00:00Z"));
    assertThat(after.changeRate()).isEqualTo(2.0);
    assertThat(after.consecutiveEmpty()).isEqualTo(4);
    assertThat(after.consecutiveMisses())
        .as("owned by outcomes")
        .isEqualTo(row.consecutiveMisses());
    assertThat(after.statsUpdatedAt()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z"));
    assertThat(after.nextDueAt()).isEqualTo(row.nextDueAt());
    assertThat(after.withNextDueAt(Instant.parse("2026-11-20T11:00:00.000001999Z")).nextDueAt())
        .isEqualTo(Instant.parse("2026-11-20T11:00:00.000001Z"));
    assertThat(after.withStats(stats)).isEqualTo(after);
  }

  private static ScheduleRow row() {
    return new ScheduleRow(
        UUID.randomUUID(),
        "pro",
        "news",
        true,
        "{}",
        "{}",
        Instant.parse("2026-11-20T10:30:00Z"),
        null,
        3,
        false,
        null,
        1,
        0,
        0,
        null,
        "event",
        "{}",
        1.5,
        null,
        List.of(),
        null,
        null,
        null,
        "https://feeds.example.org/a.xml",
        false,
        null,
        null);
  }
}
