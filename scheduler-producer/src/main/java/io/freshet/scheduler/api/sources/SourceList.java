package io.freshet.scheduler.api.sources;

import java.util.List;

/**
 * One page of sources.
 *
 * @param page the page number, from 0
 * @param size the page size asked for
 * @param total how many sources match the filters
 */
public record SourceList(List<SourceView> items, int page, int size, long total) {}
