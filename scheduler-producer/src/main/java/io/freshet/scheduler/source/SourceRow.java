package io.freshet.scheduler.source;

import java.time.Instant;
import java.util.UUID;

/**
 * A row of {@code scheduler.sources} as the API shows it. The credentials themselves are never
 * read: only whether there are some.
 *
 * @param fields what the user set (name, connector, url, category, priority, enabled, config)
 * @param cursorJson {@code cursor_json} as JSON text, unredacted
 */
public record SourceRow(
    UUID id,
    String tenantId,
    SourceFields fields,
    String cursorJson,
    boolean hasCredentials,
    Schedule schedule,
    Stats stats,
    Instant createdAt,
    Instant updatedAt) {

  public String name() {
    return fields.name();
  }

  public Connector connector() {
    return fields.connector();
  }

  public String url() {
    return fields.url();
  }

  public String host() {
    return fields.host();
  }

  public String category() {
    return fields.category();
  }

  public int priority() {
    return fields.priority();
  }

  public boolean enabled() {
    return fields.enabled();
  }

  /** {@code config_json} as JSON text. */
  public String configJson() {
    return fields.configJson();
  }

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
