package io.freshet.scheduler.api.sources;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.freshet.scheduler.schedule.FetchRequest;
import java.time.Instant;
import java.util.UUID;

/**
 * The answer to a manual fetch request.
 *
 * @param inFlight a fetch was already in flight: the source becomes due again once its outcome
 *     arrives
 * @param message the same in words
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record FetchAccepted(
    UUID id,
    @JsonProperty("manual_requested") boolean manualRequested,
    @JsonProperty("in_flight") boolean inFlight,
    @JsonProperty("next_due_at") Instant nextDueAt,
    @JsonProperty("lease_until") Instant leaseUntil,
    String message) {

  static FetchAccepted of(UUID id, FetchRequest request) {
    String message =
        request.inFlight()
            ? "a fetch of this source is in flight (lease until "
                + request.leaseUntil()
                + "); the manual request is kept and the source is due again when that fetch"
                + " completes"
            : "the source is due now and will be fetched in the next claim round, bypassing its"
                + " cadence";
    return new FetchAccepted(
        id, true, request.inFlight(), request.nextDueAt(), request.leaseUntil(), message);
  }
}
