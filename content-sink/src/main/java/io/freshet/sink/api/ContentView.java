package io.freshet.sink.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** One stored item version as the API shows it; absent values are null. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record ContentView(
    long id,
    @JsonProperty("tenant_id") String tenantId,
    @JsonProperty("source_id") String sourceId,
    String connector,
    @JsonProperty("item_id") String itemId,
    @JsonProperty("content_hash") String contentHash,
    @JsonProperty("version_of") Long versionOf,
    @JsonProperty("request_id") String requestId,
    String url,
    String title,
    String body,
    boolean truncated,
    @JsonProperty("content_type") String contentType,
    @JsonProperty("published_at") Instant publishedAt,
    @JsonProperty("fetched_at") Instant fetchedAt,
    @JsonProperty("first_seen_at") Instant firstSeenAt,
    @JsonProperty("last_seen_at") Instant lastSeenAt,
    @JsonProperty("signal_type") String signalType,
    @JsonProperty("event_at") Instant eventAt,
    @JsonProperty("expires_at") Instant expiresAt,
    JsonNode metadata,
    @JsonProperty("retained_by") List<Mark> retainedBy) {

  /**
   * A retention mark keeping this version.
   *
   * @param markedBy the id of the API key that set it (a bootstrap key's name for one set with a
   *     configured key); null for a mark set before marks recorded their owner
   */
  public record Mark(
      String reason,
      String ref,
      @JsonProperty("marked_at") Instant markedAt,
      @JsonProperty("marked_by") String markedBy) {}
}
