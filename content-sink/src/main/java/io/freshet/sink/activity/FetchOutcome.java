package io.freshet.sink.activity;

import static io.freshet.sink.ingest.ContentVersion.requireId;
import static io.freshet.sink.ingest.ContentVersion.requireIdLength;
import static io.freshet.sink.ingest.ContentVersion.storable;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.ItemDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One fetch attempt as the activity log records it, validated. Built from a {@link FetchCompleted};
 * a record that cannot make one is a poison record.
 *
 * @param listed the versions the fetch read from the source (every novelty): the source still lists
 *     them, which keeps them from expiring
 * @param unchanged how many of them the fetch found already emitted ({@code seen})
 */
public record FetchOutcome(
    String requestId,
    String sourceId,
    String tenantId,
    long epoch,
    String status,
    Integer httpStatus,
    String errorKind,
    String errorMessage,
    int attempts,
    Instant startedAt,
    Instant finishedAt,
    long bytes,
    int itemCount,
    List<Listed> listed,
    int unchanged,
    Map<String, String> cursor) {

  /** One version the fetch read. */
  public record Listed(String itemId, String contentHash) {}

  /** What the outcome means for the content it listed. */
  public enum Listing {
    /** The fetch read the source: its items are what the source lists now. */
    ITEMS,
    /** The source said nothing changed: it still lists what the last full read listed. */
    UNCHANGED_SINCE_LAST_READ,
    /** The fetch read nothing: it says nothing about what the source lists. */
    NOTHING
  }

  /**
   * @throws IllegalArgumentException naming the field when the event cannot be recorded
   */
  public static FetchOutcome of(FetchCompleted e) {
    requireId(e.getRequestId(), "request_id");
    requireId(e.getSourceId(), "source_id");
    requireIdLength(e.getTenantId(), "tenant_id");
    if (e.getStatus() == io.freshet.schemas.avro.FetchStatus.unknown) {
      throw new IllegalArgumentException(
          "status is a symbol this build does not know (written by a newer schema)");
    }
    if (e.getFinishedAt().isBefore(e.getStartedAt())) {
      throw new IllegalArgumentException(
          "finished_at " + e.getFinishedAt() + " is before started_at " + e.getStartedAt());
    }
    List<Listed> listed = new ArrayList<>(e.getItems().size());
    int unchanged = 0;
    for (ItemDigest d : e.getItems()) {
      require(d.getItemId(), "items.item_id");
      require(d.getContentHash(), "items.content_hash");
      listed.add(new Listed(storable(d.getItemId()), d.getContentHash()));
      switch (d.getNovelty()) {
        case seen -> unchanged++;
        case added, changed -> {}
      }
    }
    return new FetchOutcome(
        storable(e.getRequestId()),
        storable(e.getSourceId()),
        e.getTenantId() == null ? "" : storable(e.getTenantId()),
        e.getEpoch(),
        e.getStatus().name(),
        e.getHttpStatus(),
        e.getErrorKind(),
        storable(e.getErrorMessage()),
        e.getAttempts(),
        e.getStartedAt(),
        e.getFinishedAt(),
        e.getBytes(),
        e.getItemCount(),
        List.copyOf(listed),
        unchanged,
        e.getCursor() == null ? null : storable(e.getCursor()));
  }

  /** What this fetch says about the content its source lists. */
  public Listing listing() {
    return switch (io.freshet.schemas.avro.FetchStatus.valueOf(status)) {
      case ok, partial -> Listing.ITEMS;
      case not_modified -> Listing.UNCHANGED_SINCE_LAST_READ;
      case failed, expired -> Listing.NOTHING;
      case unknown -> throw new IllegalStateException("refused by of()");
    };
  }

  private static void require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }
}
