package io.freshet.scheduler.source;

import java.util.UUID;

/**
 * A source to insert. Its schedule starts empty: never fetched, so due at once (ADR 0009).
 *
 * @param host lower-cased host of {@code url}, the partition key of its fetch requests
 * @param category a category's wire name, or null
 * @param configJson the {@code config_json} object as JSON text
 * @param credentialsEncrypted the sealed credentials envelope, or null for none
 */
public record NewSource(
    UUID id,
    String tenantId,
    String name,
    Connector connector,
    String url,
    String host,
    String category,
    int priority,
    boolean enabled,
    String configJson,
    byte[] credentialsEncrypted) {}
