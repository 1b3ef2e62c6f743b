package io.freshet.sink.retention;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What one cleanup run did.
 *
 * @param ran false when another instance held the cleanup lock, so this run did nothing
 * @param deleted expired, unretained content rows deleted
 * @param batches delete transactions run
 * @param activityDeleted activity-log rows past their retention deleted
 * @param exhausted true when the run stopped at {@code freshet.cleanup.max-batches} with rows left
 * @param millis how long the run took
 */
public record CleanupReport(
    boolean ran,
    long deleted,
    int batches,
    @JsonProperty("activity_deleted") long activityDeleted,
    boolean exhausted,
    long millis) {

  static CleanupReport skipped() {
    return new CleanupReport(false, 0, 0, 0, false, 0);
  }
}
