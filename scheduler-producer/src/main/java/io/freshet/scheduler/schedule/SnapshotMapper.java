package io.freshet.scheduler.schedule;

import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.SignalType;
import io.freshet.cadence.source.SourceSnapshot;
import io.freshet.cadence.source.Tier;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a {@link ScheduleRow} into the cadence module's {@link SourceSnapshot}: the row is all that
 * computing cadence reads (ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md): no queries at scheduling
 * time).
 */
public final class SnapshotMapper {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private SnapshotMapper() {}

  public static SourceSnapshot snapshot(ScheduleRow row) {
    return SourceSnapshot.builder()
        .lastFetchAt(lastFetchAt(row.cursorJson()))
        .category(Category.parse(row.category()).orElse(null))
        .tier(Tier.parse(row.tenantTier()).orElse(null))
        .retryAfter(row.retryAfter())
        .consecutiveMisses(row.consecutiveMisses())
        .consecutiveEmpty(row.consecutiveEmpty())
        .windowFetches(row.windowFetches())
        .avgSignalYield(row.avgSignalYield())
        .dominantSignalType(SignalType.parse(row.dominantSignalType()).orElse(null))
        .typeCounts(typeCounts(row.typeCountsJson()))
        .medianDaysToEvent(row.medianDaysToEvent())
        .publishIntervalAvg(
            row.publishIntervalAvgMs() == null
                ? null
                : Duration.ofMillis(row.publishIntervalAvgMs()))
        .changeRatePerHour(row.changeRate())
        .recentPublishedAt(row.recentPublishedAt())
        .build();
  }

  /**
   * {@code cursor_json.last_fetch_at} (ADR 0006
   * (docs/adr/0006-per-source-cadence-and-the-due-rule.md)), or null when absent or not an ISO
   * instant (a malformed value is treated as never fetched, which makes the source due: the safe
   * side).
   */
  public static Instant lastFetchAt(String cursorJson) {
    if (cursorJson == null || cursorJson.isBlank()) {
      return null;
    }
    JsonNode node = JSON.readTree(cursorJson).get("last_fetch_at");
    if (node == null || !node.isString()) {
      return null;
    }
    try {
      return Instant.parse(node.asString());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static Map<SignalType, Integer> typeCounts(String json) {
    Map<SignalType, Integer> counts = new EnumMap<>(SignalType.class);
    if (json == null || json.isBlank()) {
      return counts;
    }
    JsonNode node = JSON.readTree(json);
    for (var entry : node.properties()) {
      SignalType.parse(entry.getKey())
          .ifPresent(type -> counts.put(type, entry.getValue().asInt()));
    }
    return counts;
  }
}
