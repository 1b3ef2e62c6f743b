package io.freshet.scheduler.api.sources;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.freshet.scheduler.api.support.Json;
import io.freshet.scheduler.api.support.SecretRedactor;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.source.SourceRow;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * A source as the API shows it. Credentials never appear, only whether there are some; the url,
 * config and cursor have their secret-looking values masked ({@link SecretRedactor}). Absent values
 * are shown as null. Field names are snake_case ({@code @JsonProperty}, which Jackson 3 and the
 * OpenAPI generator both read).
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record SourceView(
    UUID id,
    @JsonProperty("tenant_id") String tenantId,
    String name,
    String connector,
    String url,
    String category,
    int priority,
    boolean enabled,
    JsonNode config,
    @JsonProperty("has_credentials") boolean hasCredentials,
    JsonNode cursor,
    ScheduleView schedule,
    StatsView stats,
    ServerView server,
    @JsonProperty("created_at") Instant createdAt,
    @JsonProperty("updated_at") Instant updatedAt) {

  /**
   * Where the source stands in the schedule.
   *
   * @param lastFetchAt {@code cursor_json.last_fetch_at}: the last successful fetch (ADR 0006
   *     (docs/adr/0006-per-source-cadence-and-the-due-rule.md))
   * @param manualRequested a manual fetch was asked for and has not completed yet
   * @param failing {@value SourceView#FAILING_AFTER} or more failed fetches in a row
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ScheduleView(
      @JsonProperty("next_due_at") Instant nextDueAt,
      @JsonProperty("lease_until") Instant leaseUntil,
      long epoch,
      @JsonProperty("last_fetch_at") Instant lastFetchAt,
      @JsonProperty("last_status") String lastStatus,
      @JsonProperty("last_error") String lastError,
      @JsonProperty("last_outcome_at") Instant lastOutcomeAt,
      @JsonProperty("retry_after") Instant retryAfter,
      @JsonProperty("consecutive_misses") int consecutiveMisses,
      @JsonProperty("consecutive_empty") int consecutiveEmpty,
      @JsonProperty("manual_requested") boolean manualRequested,
      boolean failing) {}

  /** Failed fetches in a row after which a source shows as failing. */
  public static final int FAILING_AFTER = 3;

  /**
   * What the source's server last said of it, and what the scheduler made of it (docs/design.md,
   * "The server's rules"). URLs are shown with secret-looking query values masked.
   *
   * @param hints the last fetch's freshness hints (max_age_seconds, ttl_minutes,
   *     update_period_seconds, skip_hours, skip_days); null when it gave none
   * @param hintsHoldUntil the next due time as the hints held it back; null when they did not
   * @param movedTo a permanent redirect seen on the last fetch: the source moves there if the next
   *     fetch is redirected there too
   * @param selfUrl the document's own URL, when it is not the source's (reported, not followed)
   * @param hubUrl the WebSub hub the document announces
   * @param disabledReason why the scheduler disabled the source: {@code gone} (it answered 410)
   * @param previousUrls the URLs the source had before permanent moves, oldest first
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ServerView(
      JsonNode hints,
      @JsonProperty("hints_hold_until") Instant hintsHoldUntil,
      @JsonProperty("moved_to") String movedTo,
      @JsonProperty("self_url") String selfUrl,
      @JsonProperty("hub_url") String hubUrl,
      @JsonProperty("disabled_reason") String disabledReason,
      @JsonProperty("previous_urls") JsonNode previousUrls) {}

  /** The source's latest {@code SourceStats}, as the stats-aggregator last reported them. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record StatsView(
      @JsonProperty("window_fetches") int windowFetches,
      @JsonProperty("avg_signal_yield") Double avgSignalYield,
      @JsonProperty("dominant_signal_type") String dominantSignalType,
      @JsonProperty("type_counts") JsonNode typeCounts,
      @JsonProperty("median_days_to_event") Double medianDaysToEvent,
      @JsonProperty("publish_interval_avg_ms") Long publishIntervalAvgMs,
      @JsonProperty("change_rate") Double changeRate,
      @JsonProperty("stats_updated_at") Instant statsUpdatedAt) {}

  static SourceView of(SourceRow row, Json json) {
    JsonNode cursor = json.read(row.cursorJson());
    SourceRow.Schedule s = row.schedule();
    SourceRow.Stats t = row.stats();
    return new SourceView(
        row.id(),
        row.tenantId(),
        row.name(),
        WireNames.of(row.connector()),
        SecretRedactor.redactUrl(row.url()),
        row.category(),
        row.priority(),
        row.enabled(),
        SecretRedactor.redact(json.read(row.configJson())),
        row.hasCredentials(),
        SecretRedactor.redact(cursor),
        new ScheduleView(
            s.nextDueAt(),
            s.leaseUntil(),
            s.epoch(),
            lastFetchAt(cursor),
            s.lastStatus(),
            s.lastError(),
            s.lastOutcomeAt(),
            s.retryAfter(),
            s.consecutiveMisses(),
            s.consecutiveEmpty(),
            s.manualRequested(),
            s.consecutiveMisses() >= FAILING_AFTER),
        new StatsView(
            t.windowFetches(),
            t.avgSignalYield(),
            t.dominantSignalType(),
            json.read(t.typeCountsJson()),
            t.medianDaysToEvent(),
            t.publishIntervalAvgMs(),
            t.changeRate(),
            t.statsUpdatedAt()),
        server(row.web(), json),
        row.createdAt(),
        row.updatedAt());
  }

  private static ServerView server(SourceRow.Web w, Json json) {
    JsonNode previous = w.previousUrlsJson() == null ? null : json.read(w.previousUrlsJson());
    if (previous != null) {
      for (JsonNode entry : previous) {
        if (entry instanceof tools.jackson.databind.node.ObjectNode o) {
          o.put("url", SecretRedactor.redactUrl(o.path("url").asString("")));
          o.put("replaced_by", SecretRedactor.redactUrl(o.path("replaced_by").asString("")));
        }
      }
    }
    return new ServerView(
        w.hintsJson() == null ? null : json.read(w.hintsJson()),
        w.hintNotBefore(),
        w.movedTo() == null ? null : SecretRedactor.redactUrl(w.movedTo()),
        w.selfUrl() == null ? null : SecretRedactor.redactUrl(w.selfUrl()),
        w.hubUrl() == null ? null : SecretRedactor.redactUrl(w.hubUrl()),
        w.disabledReason(),
        previous == null ? json.read("[]") : previous);
  }

  /** {@code cursor.last_fetch_at} as an instant; null when missing or not an ISO timestamp. */
  static Instant lastFetchAt(JsonNode cursor) {
    JsonNode value = cursor == null ? null : cursor.get("last_fetch_at");
    if (value == null || !value.isString()) {
      return null;
    }
    try {
      return OffsetDateTime.parse(value.stringValue()).toInstant();
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
