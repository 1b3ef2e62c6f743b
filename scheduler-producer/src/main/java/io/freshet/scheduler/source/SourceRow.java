package io.freshet.scheduler.source;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code scheduler.sources} as the API shows it. The credentials themselves are never
 * read: only whether there are some.
 *
 * @param configJson {@code config_json} as JSON text
 * @param cursorJson {@code cursor_json} as JSON text, unredacted
 */
public record SourceRow(
    UUID id,
    String tenantId,
    String name,
    Connector connector,
    String url,
    String host,
    String category,
    int priority,
    boolean enabled,
    String configJson,
    String cursorJson,
    boolean hasCredentials,
    Schedule schedule,
    Stats stats,
    Instant createdAt,
    Instant updatedAt) {

  /** The schedule columns. */
  public record Schedule(
      Instant nextDueAt,
      Instant leaseUntil,
      long epoch,
      boolean manualRequested,
      String lastStatus,
      String lastError,
      Instant lastOutcomeAt,
      Instant retryAfter,
      int consecutiveMisses,
      int consecutiveEmpty) {}

  /**
   * The denormalised {@code SourceStats} columns.
   *
   * @param typeCountsJson {@code type_counts} as JSON text
   */
  public record Stats(
      int windowFetches,
      Double avgSignalYield,
      String dominantSignalType,
      String typeCountsJson,
      Double medianDaysToEvent,
      Long publishIntervalAvgMs,
      Double changeRate,
      Instant statsUpdatedAt) {}
}
