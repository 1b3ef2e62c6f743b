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
    Web web,
    Instant createdAt,
    Instant updatedAt) {

  /**
   * What the server last said of the source and what the scheduler did about it.
   *
   * @param hintsJson the last fetch's freshness hints (JSON), or null
   * @param hintNotBefore the due time those hints held the source back to, or null
   * @param movedTo a permanent redirect seen on the last fetch, not yet confirmed by the next
   * @param selfUrl the document's own URL when it differs from the source's
   * @param hubUrl the WebSub hub the document announces
   * @param disabledReason why the scheduler disabled the source ({@code gone}), or null
   * @param previousUrlsJson earlier URLs (JSON array of url, replaced_by, reason, replaced_at)
   */
  public record Web(
      String hintsJson,
      Instant hintNotBefore,
      String movedTo,
      String selfUrl,
      String hubUrl,
      String disabledReason,
      String previousUrlsJson) {}

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
