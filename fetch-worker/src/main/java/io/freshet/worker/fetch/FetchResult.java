package io.freshet.worker.fetch;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import java.util.List;

/**
 * Everything one request produces: the items to emit (new or changed, or all with {@code emit:
 * all}), then the completion. {@code items} lists every item read, for the CLI.
 */
public record FetchResult(
    List<ContentFetched> content, FetchCompleted completed, List<FetchedItem> items) {

  public FetchResult {
    content = List.copyOf(content);
    items = List.copyOf(items);
  }
}
