package io.freshet.worker.connector;

import io.freshet.worker.items.RawItem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Applies a source's time window and item limit, in source order. An event is judged by when it
 * happens (within the window back and ahead), any other item by when it was published (not older
 * than the window back); an item without a date is kept. It is how the {@code item_limit}, {@code
 * window_days} and {@code window_ahead_days} of {@link ConnectorOptions} are honoured, so it sits
 * beside them.
 */
public final class ItemWindow {

  private ItemWindow() {}

  public static List<RawItem> apply(List<RawItem> items, ConnectorOptions options, Instant now) {
    List<RawItem> kept = new ArrayList<>(Math.min(items.size(), 256));
    Instant oldest = options.windowBack() == null ? null : now.minus(options.windowBack());
    Instant latest = options.windowAhead() == null ? null : now.plus(options.windowAhead());
    for (RawItem item : items) {
      if (options.itemLimit() > 0 && kept.size() >= options.itemLimit()) {
        break;
      }
      Instant at = item.eventAt() != null ? item.eventAt() : item.publishedAt();
      if (at != null && oldest != null && at.isBefore(oldest)) {
        continue;
      }
      if (item.eventAt() != null && latest != null && item.eventAt().isAfter(latest)) {
        continue;
      }
      kept.add(item);
    }
    return kept;
  }
}
