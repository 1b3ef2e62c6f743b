package io.freshet.sink.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * One fetch of a source as the activity log shows it. The outcome fields are null until the fetch's
 * {@code FetchCompleted} is in ({@code outcome_in}); {@code complete} once, besides, every item it
 * emitted has been stored.
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ActivityView(
    @JsonProperty("request_id") String requestId,
    @JsonProperty("source_id") String sourceId,
    @JsonProperty("tenant_id") String tenantId,
    Long epoch,
    String status,
    @JsonProperty("http_status") Integer httpStatus,
    @JsonProperty("error_kind") String errorKind,
    String errors,
    Integer attempts,
    @JsonProperty("started_at") Instant startedAt,
    @JsonProperty("finished_at") Instant finishedAt,
    Long bytes,
    @JsonProperty("items_fetched") Integer itemsFetched,
    @JsonProperty("items_emitted") Integer itemsEmitted,
    @JsonProperty("items_unchanged") Integer itemsUnchanged,
    @JsonProperty("items_new") int itemsNew,
    @JsonProperty("items_changed") int itemsChanged,
    @JsonProperty("items_duplicate") int itemsDuplicate,
    @JsonProperty("items_arrived") int itemsArrived,
    @JsonProperty("cursor_used") JsonNode cursorUsed,
    @JsonProperty("cursor_after") JsonNode cursorAfter,
    @JsonProperty("logged_at") Instant loggedAt,
    @JsonProperty("outcome_in") boolean outcomeIn,
    boolean complete) {}
