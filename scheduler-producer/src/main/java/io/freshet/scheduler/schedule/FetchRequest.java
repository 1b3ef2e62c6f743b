package io.freshet.scheduler.schedule;

import java.time.Instant;

/**
 * The state of a source right after a manual fetch was requested.
 *
 * @param inFlight a claim's lease was active: the due time was left alone and the kept {@code
 *     manual_requested} flag makes the source due again when that fetch's outcome arrives
 */
public record FetchRequest(Instant nextDueAt, Instant leaseUntil, boolean inFlight) {}
