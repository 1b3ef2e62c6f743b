package io.freshet.worker.items;

/**
 * {@code item_id}: the source's own id (guid, id, uid) when it gives one, else the canonical link,
 * else a hash of title and publication date — stable across fetches of an unchanged item.
 */
public final class ItemIdentity {

  private static final int MAX_LENGTH = 512;

  private ItemIdentity() {}

  public static String of(RawItem item) {
    if (item.sourceId() != null && !item.sourceId().isBlank()) {
      String id = item.sourceId().trim();
      return id.length() <= MAX_LENGTH ? id : "sha256:" + ContentHasher.sha256(id);
    }
    String link = Urls.canonical(item.url());
    if (link != null) {
      return link.length() <= MAX_LENGTH ? link : "sha256:" + ContentHasher.sha256(link);
    }
    return "sha256:"
        + ContentHasher.sha256(
            (item.title() == null ? "" : Text.plain(item.title()))
                + "\u001f"
                + (item.publishedAt() == null ? "" : item.publishedAt().toString()));
  }
}
