package io.freshet.stack.e2e;

import java.time.Duration;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * A source's schedule and latest stats as the scheduler's {@code GET /sources/{id}} shows them.
 *
 * @param nextDueAt when the scheduler will next claim it
 * @param lastFetchAt {@code cursor.last_fetch_at}: the reference every mode's interval starts from
 * @param leaseUntil non-null while a fetch is in flight
 * @param epoch claims so far
 * @param lastOutcomeAt finish time of the last outcome applied
 * @param windowFetches reads in the stats window (the stats of that many fetches are applied)
 * @param statsUpdatedAt null until stats arrive
 */
record SourceSchedule(
    Instant nextDueAt,
    Instant lastFetchAt,
    Instant leaseUntil,
    long epoch,
    Instant lastOutcomeAt,
    int windowFetches,
    Double yield,
    String dominant,
    Double medianDays,
    Long publishIntervalMs,
    Double changeRate,
    Instant statsUpdatedAt) {

  static SourceSchedule read(StackFixture stack, String id) throws Exception {
    JsonNode source = StackFixture.JSON.readTree(stack.get("/sources/" + id));
    JsonNode s = source.get("schedule");
    JsonNode t = source.get("stats");
    return new SourceSchedule(
        instant(s.get("next_due_at")),
        instant(s.get("last_fetch_at")),
        instant(s.get("lease_until")),
        s.get("epoch").asLong(),
        instant(s.get("last_outcome_at")),
        t.get("window_fetches").asInt(),
        isNull(t.get("avg_signal_yield")) ? null : t.get("avg_signal_yield").asDouble(),
        isNull(t.get("dominant_signal_type")) ? null : t.get("dominant_signal_type").asString(),
        isNull(t.get("median_days_to_event")) ? null : t.get("median_days_to_event").asDouble(),
        isNull(t.get("publish_interval_avg_ms")) ? null : t.get("publish_interval_avg_ms").asLong(),
        isNull(t.get("change_rate")) ? null : t.get("change_rate").asDouble(),
        instant(t.get("stats_updated_at")));
  }

  /** The interval the scheduler set: {@code next_due_at − last_fetch_at}. */
  Duration interval() {
    return Duration.between(lastFetchAt, nextDueAt);
  }

  /** Fetched, its outcome applied, nothing in flight. */
  boolean settled() {
    return leaseUntil == null && lastOutcomeAt != null && lastFetchAt != null;
  }

  private static boolean isNull(JsonNode n) {
    return n == null || n.isNull();
  }

  private static Instant instant(JsonNode n) {
    return isNull(n) ? null : Instant.parse(n.asString());
  }
}
