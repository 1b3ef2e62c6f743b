package io.freshet.scheduler.schedule;

import java.time.Instant;
import java.util.UUID;

/**
 * A source as a claim returned it: what its {@code FetchRequested} needs.
 *
 * @param epoch the claim's epoch (already bumped)
 * @param dueAt when the source became due
 * @param manual whether a user asked for this fetch
 */
public record ClaimedSource(
    UUID id,
    String tenantId,
    String connector,
    String url,
    String host,
    String configJson,
    String cursorJson,
    byte[] credentialsEncrypted,
    long epoch,
    int priority,
    Instant dueAt,
    boolean manual) {}
