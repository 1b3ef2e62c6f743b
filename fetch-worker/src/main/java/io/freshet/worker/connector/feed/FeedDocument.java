package io.freshet.worker.connector.feed;

import io.freshet.worker.connector.ServerHints;
import io.freshet.worker.items.RawItem;
import java.util.List;

/**
 * A feed document read: its items in source order and what it says of itself ({@link FeedHints}).
 */
record FeedDocument(List<RawItem> items, ServerHints hints) {}
