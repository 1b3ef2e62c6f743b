package io.freshet.worker.signal;

import io.freshet.worker.items.RawItem;

/**
 * Gives every item a {@code signal_type} (event / ask / give / informative) and its {@code
 * event_at}. Implementations look at structure first (calendar events, schema.org events, feed date
 * extensions), then at rules; they must be thread-safe and fast (called per item).
 */
public interface SignalClassifier {

  Signal classify(RawItem item);

  /**
   * As {@link #classify(RawItem)}, with the item's body as plain text already worked out: {@code
   * Text.stripTags(item.body())}, which the content hash needs too ({@code ""} for no body), or
   * null when it was not. An implementation that reads the body's text may take it from here
   * instead of stripping the body again; the result must be the same.
   */
  default Signal classify(RawItem item, String plainBody) {
    return classify(item);
  }
}
