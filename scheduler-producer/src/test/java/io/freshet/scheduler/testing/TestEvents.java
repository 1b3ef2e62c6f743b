package io.freshet.scheduler.testing;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;

/** Events as a fetch-worker would send them, for the scheduler's tests. */
public final class TestEvents {

  private TestEvents() {}

  /** A fetch of {@code id} at {@code epoch} that just ended; {@code ok} brings a new ETag. */
  public static FetchCompleted completed(UUID id, long epoch, FetchStatus status) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    return FetchCompleted.newBuilder()
        .setRequestId(UUID.randomUUID().toString())
        .setSourceId(id.toString())
        .setEpoch(epoch)
        .setStatus(status)
        .setHttpStatus(status == FetchStatus.not_modified ? 304 : 200)
        .setStartedAt(now.minusMillis(300))
        .setFinishedAt(now)
        .setCursor(status == FetchStatus.ok ? Map.of("etag", "\"new\"") : null)
        .build();
  }
}
