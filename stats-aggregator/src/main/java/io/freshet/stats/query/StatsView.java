package io.freshet.stats.query;

import io.freshet.schemas.avro.SourceStats;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * One source's stats as the HTTP API shows them (JSON, snake_case): the fields of {@code
 * SourceStats}, with {@code publish_interval_avg_ms} in milliseconds.
 */
public record StatsView(
    String sourceId,
    int windowFetches,
    double avgSignalYield,
    String dominantSignalType,
    Map<String, Long> typeCounts,
    Double medianDaysToEvent,
    Long publishIntervalAvgMs,
    List<Instant> recentPublishedAt,
    int consecutiveMisses,
    int consecutiveEmpty,
    double changeRate,
    Instant updatedAt,
    String tenantId) {

  static StatsView of(SourceStats s) {
    return new StatsView(
        s.getSourceId(),
        s.getWindowFetches(),
        s.getAvgSignalYield(),
        s.getDominantSignalType() == null ? null : s.getDominantSignalType().name(),
        Map.copyOf(s.getTypeCounts()),
        s.getMedianDaysToEvent(),
        s.getPublishIntervalAvg(),
        List.copyOf(s.getRecentPublishedAt()),
        s.getConsecutiveMisses(),
        s.getConsecutiveEmpty(),
        s.getChangeRate(),
        s.getUpdatedAt(),
        s.getTenantId());
  }
}
