package io.freshet.worker.items;

import io.freshet.schemas.avro.ItemNovelty;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bounded digest of items already emitted for a source, carried in the cursor under {@value
 * #CURSOR_KEY} from one fetch to the next (FetchCompleted → scheduler → FetchRequested). Each entry
 * is 16 bytes: 8 of the SHA-256 of the item id and 8 of its content hash, so 100 entries take 2.2
 * KB of base64. An item whose id is not in it is added, one whose hash differs is changed, the rest
 * were seen.
 *
 * <p>An unreadable digest reads as empty: every item is then emitted again, which the content-sink
 * absorbs (upsert by hash). Collisions of 64-bit prefixes are negligible at these sizes.
 */
public final class SeenDigest {

  /** Cursor key of the encoded digest. */
  public static final String CURSOR_KEY = "seen";

  private static final String VERSION = "1:";
  private static final int ENTRY_BYTES = 16;

  private final LinkedHashMap<Long, Long> entries;

  private SeenDigest(LinkedHashMap<Long, Long> entries) {
    this.entries = entries;
  }

  public static SeenDigest empty() {
    return new SeenDigest(new LinkedHashMap<>());
  }

  /** Reads an encoded digest; null, blank or unreadable gives the empty digest. */
  public static SeenDigest parse(String encoded) {
    var entries = new LinkedHashMap<Long, Long>();
    if (encoded == null || !encoded.startsWith(VERSION)) {
      return new SeenDigest(entries);
    }
    try {
      byte[] bytes = Base64.getUrlDecoder().decode(encoded.substring(VERSION.length()));
      if (bytes.length % ENTRY_BYTES != 0) {
        return new SeenDigest(entries);
      }
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      while (buffer.hasRemaining()) {
        entries.put(buffer.getLong(), buffer.getLong());
      }
    } catch (IllegalArgumentException unreadable) {
      entries.clear();
    }
    return new SeenDigest(entries);
  }

  /** What this digest says about an item read now. */
  public ItemNovelty noveltyOf(String itemId, String contentHash) {
    return noveltyOf(new Entry(itemId, contentHash));
  }

  /** What this digest says about an item read now. */
  public ItemNovelty noveltyOf(Entry item) {
    Long hash = entries.get(item.idKey());
    if (hash == null) {
      return ItemNovelty.added;
    }
    return hash == item.hashKey() ? ItemNovelty.seen : ItemNovelty.changed;
  }

  /**
   * One item of the current read, as the digest keeps it: its id and content hash cut to 8 bytes
   * each, worked out once for both the look-up and the next digest.
   */
  public record Entry(long idKey, long hashKey) {
    public Entry(String itemId, String contentHash) {
      this(SeenDigest.idKey(itemId), SeenDigest.hashKey(contentHash));
    }
  }

  /**
   * The digest after a fetch: the items just read, in source order, then earlier entries not read
   * this time (an item that drops out of a feed and comes back is not new), up to {@code capacity}.
   */
  public SeenDigest after(List<Entry> read, int capacity) {
    var next = new LinkedHashMap<Long, Long>();
    for (Entry e : read) {
      if (next.size() >= capacity) {
        break;
      }
      next.putIfAbsent(e.idKey(), e.hashKey());
    }
    for (Map.Entry<Long, Long> old : entries.entrySet()) {
      if (next.size() >= capacity) {
        break;
      }
      next.putIfAbsent(old.getKey(), old.getValue());
    }
    return new SeenDigest(next);
  }

  public int size() {
    return entries.size();
  }

  public String encode() {
    ByteBuffer buffer = ByteBuffer.allocate(entries.size() * ENTRY_BYTES);
    entries.forEach((id, hash) -> buffer.putLong(id).putLong(hash));
    return VERSION + Base64.getUrlEncoder().withoutPadding().encodeToString(buffer.array());
  }

  private static long idKey(String itemId) {
    return ByteBuffer.wrap(ContentHasher.digest(itemId)).getLong();
  }

  private static long hashKey(String contentHash) {
    if (contentHash.length() >= 16) {
      try {
        return ByteBuffer.wrap(HexFormat.of().parseHex(contentHash, 0, 16)).getLong();
      } catch (IllegalArgumentException notHex) {
        // fall through
      }
    }
    return ByteBuffer.wrap(ContentHasher.digest(contentHash)).getLong();
  }
}
