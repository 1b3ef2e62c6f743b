package io.freshet.scheduler.source;

import java.util.UUID;

/**
 * A source to insert. Its schedule starts empty: never fetched, so due at once (ADR 0006
 * (docs/adr/0006-per-source-cadence-and-the-due-rule.md)).
 *
 * @param credentialsEncrypted the sealed credentials envelope, or null for none
 */
public record NewSource(
    UUID id, String tenantId, SourceFields fields, byte[] credentialsEncrypted) {}
