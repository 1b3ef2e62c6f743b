package io.freshet.sink.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One page of a keyset-paged list.
 *
 * @param items the rows of this page
 * @param nextCursor pass as {@code cursor} for the next page; null on the last page
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record Page<T>(List<T> items, @JsonProperty("next_cursor") String nextCursor) {}
