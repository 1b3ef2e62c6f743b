package io.freshet.scheduler.source;

/**
 * The fields of a source a user sets, as they are stored: shared by an insert ({@link NewSource})
 * and a full update ({@link SourceEdit}).
 *
 * @param host lower-cased host of {@code url}, the partition key of its fetch requests
 * @param category a category's wire name, or null
 * @param configJson the {@code config_json} object as JSON text
 */
public record SourceFields(
    String name,
    Connector connector,
    String url,
    String host,
    String category,
    int priority,
    boolean enabled,
    String configJson) {}
