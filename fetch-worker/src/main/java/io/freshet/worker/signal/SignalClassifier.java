package io.freshet.worker.signal;

import io.freshet.worker.items.RawItem;

/**
 * Gives every item a {@code signal_type} (event / ask / give / informative) and its {@code
 * event_at}. Implementations look at structure first (calendar events, schema.org events, feed date
 * extensions), then at rules; they must be thread-safe and fast (called per item).
 */
public interface SignalClassifier {

  Signal classify(RawItem item);
}
