package io.freshet.scheduler.source;

/**
 * Filters of the source list; a null field does not filter.
 *
 * @param text a case-insensitive substring of the name or the URL
 */
public record SourceFilter(
    String tenantId, Boolean enabled, Connector connector, String category, String text) {}
