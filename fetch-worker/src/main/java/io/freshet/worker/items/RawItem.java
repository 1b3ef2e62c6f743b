package io.freshet.worker.items;

import java.time.Instant;
import java.util.Map;

/**
 * One item as a connector read it, before identity, hashing and classification. It belongs to the
 * item model with {@link Text}: connectors produce it and depend on this package, never the
 * reverse.
 *
 * @param sourceId the source's own id for it (guid, id, uid), or null when it has none
 * @param url absolute link to the item, or null
 * @param title plain-text title, or null
 * @param body content (HTML or text, see {@code contentType}), or null
 * @param contentType media type of {@code body}
 * @param publishedAt when the source says it was published or last updated, or null
 * @param eventAt when the event it announces happens, or null
 * @param structuredEvent true when the source's structure says it is an event (a calendar event, a
 *     schema.org Event), so no keyword rule is needed
 * @param metadata connector-specific extras (author, categories, location...)
 */
public record RawItem(
    String sourceId,
    String url,
    String title,
    String body,
    String contentType,
    Instant publishedAt,
    Instant eventAt,
    boolean structuredEvent,
    Map<String, String> metadata) {

  public RawItem {
    metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
  }
}
