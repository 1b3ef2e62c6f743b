package io.freshet.scheduler.source;

import java.util.List;

/** One page of sources, oldest first, and how many match in total. */
public record SourcePage(List<SourceRow> rows, long total) {}
