package io.freshet.worker.fetch;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.worker.robots.RobotsDecision;
import java.util.List;

/**
 * Everything one request produces: the items to emit (new or changed, or all with {@code emit:
 * all}), then the completion. {@code items} lists every item read, and {@code robots} what
 * robots.txt decided (null when the fetch ended before asking), for the CLI.
 */
public record FetchResult(
    List<ContentFetched> content,
    FetchCompleted completed,
    List<FetchedItem> items,
    RobotsDecision robots) {

  public FetchResult {
    content = List.copyOf(content);
    items = List.copyOf(items);
  }

  public FetchResult(
      List<ContentFetched> content, FetchCompleted completed, List<FetchedItem> items) {
    this(content, completed, items, null);
  }

  /** The same result with the robots decision that let it be fetched, or stopped it. */
  public FetchResult withRobots(RobotsDecision decision) {
    return new FetchResult(content, completed, items, decision);
  }
}
