package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.schedule.Rescheduler;
import io.freshet.schemas.avro.SourceStats;
import java.sql.Timestamp;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Stores a source's latest {@code SourceStats} on its row (denormalised, as the signal-adaptive
 * note asks: computing cadence reads only the row) and recomputes its next due time. Older stats
 * than the stored ones (redelivery, compaction replays) change nothing.
 */
@Component
public class StatsApplier {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final String UPDATE =
      """
      UPDATE scheduler.sources SET
        window_fetches = :windowFetches, avg_signal_yield = :yield,
        dominant_signal_type = :dominant, type_counts = :typeCounts::jsonb,
        median_days_to_event = :median, publish_interval_avg_ms = :interval,
        recent_published_at = :recent, change_rate = :changeRate,
        consecutive_empty = :empty, stats_updated_at = :updatedAt
      WHERE id = :id AND (stats_updated_at IS NULL OR stats_updated_at <= :updatedAt)
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate tx;
  private final Rescheduler rescheduler;

  StatsApplier(JdbcClient jdbc, TransactionTemplate tx, Rescheduler rescheduler) {
    this.jdbc = jdbc;
    this.tx = tx;
    this.rescheduler = rescheduler;
  }

  /** Returns true when the stats were newer than the stored ones and were stored. */
  public boolean apply(SourceStats stats) {
    UUID id = OutcomeApplier.parseId(stats.getSourceId());
    Boolean stored =
        tx.execute(
            status -> {
              int n =
                  jdbc.sql(UPDATE)
                      .param("windowFetches", stats.getWindowFetches())
                      .param("yield", stats.getAvgSignalYield())
                      .param(
                          "dominant",
                          stats.getDominantSignalType() == null
                              ? null
                              : stats.getDominantSignalType().name())
                      .param("typeCounts", JSON.writeValueAsString(stats.getTypeCounts()))
                      .param("median", stats.getMedianDaysToEvent())
                      .param("interval", stats.getPublishIntervalAvg())
                      .param(
                          "recent",
                          stats.getRecentPublishedAt().stream()
                              .map(Timestamp::from)
                              .toArray(Timestamp[]::new))
                      .param("changeRate", stats.getChangeRate())
                      .param("empty", stats.getConsecutiveEmpty())
                      .param("updatedAt", Timestamp.from(stats.getUpdatedAt()))
                      .param("id", id)
                      .update();
              if (n > 0) {
                rescheduler.reschedule(id);
              }
              return n > 0;
            });
    return Boolean.TRUE.equals(stored);
  }
}
