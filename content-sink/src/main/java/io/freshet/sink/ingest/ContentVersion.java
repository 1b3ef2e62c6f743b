package io.freshet.sink.ingest;

import io.freshet.schemas.avro.ContentFetched;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One item version as the sink stores it, validated. Built from a {@link ContentFetched}; a record
 * that cannot make one is a poison record.
 *
 * <p>PostgreSQL's {@code text} and {@code jsonb} cannot hold the character U+0000, which a page or
 * a JSON feed can carry and Avro passes through. Stored as it came, it would fail its whole batch
 * on every retry and stall the partition; so every text field (and every metadata key and value) is
 * stored with U+FFFD, the replacement character, in its place. The content hash stays the one the
 * worker computed over the original.
 */
public record ContentVersion(
    String tenantId,
    String sourceId,
    String connector,
    String itemId,
    String contentHash,
    String requestId,
    String url,
    String title,
    String body,
    boolean truncated,
    String contentType,
    Instant publishedAt,
    Instant fetchedAt,
    String signalType,
    Instant eventAt,
    Instant expiresAt,
    Map<String, String> metadata) {

  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  /**
   * The most UTF-8 bytes {@code source_id} and {@code item_id} may take together: the unique key
   * (source, item, 64-character hash) must stay under PostgreSQL's B-tree entry limit of 2,704
   * bytes, with room for the hash and the entry's overhead.
   */
  static final int MAX_KEY_BYTES = 2_400;

  /** The version key: the table's unique constraint. */
  public record Key(String sourceId, String itemId, String contentHash) {}

  /** The item this is a version of. */
  public record ItemKey(String sourceId, String itemId) {}

  public Key key() {
    return new Key(sourceId, itemId, contentHash);
  }

  public ItemKey itemKey() {
    return new ItemKey(sourceId, itemId);
  }

  /**
   * @param defaultRetention used when the event carries no retention of its own
   * @throws IllegalArgumentException naming the field when the event cannot be stored
   */
  public static ContentVersion of(ContentFetched e, Duration defaultRetention) {
    requireId(e.getSourceId(), "source_id");
    require(e.getItemId(), "item_id");
    requireId(e.getRequestId(), "request_id");
    requireIdLength(e.getTenantId(), "tenant_id");
    String sourceId = storable(e.getSourceId());
    String itemId = storable(e.getItemId());
    // as stored: a U+0000 (1 byte) becomes U+FFFD (3 bytes)
    int keyBytes = utf8Length(sourceId) + utf8Length(itemId);
    if (keyBytes > MAX_KEY_BYTES) {
      // Past PostgreSQL's B-tree entry limit (2,704 bytes) the insert would fail on every retry
      // and stall the partition; Freshet's workers hash item ids longer than 512 characters.
      throw new IllegalArgumentException(
          "source_id and item_id together are "
              + keyBytes
              + " bytes of UTF-8; at most "
              + MAX_KEY_BYTES
              + " fit the unique index (item_id '"
              + abbreviate(e.getItemId())
              + "')");
    }
    if (e.getContentHash() == null || !SHA256_HEX.matcher(e.getContentHash()).matches()) {
      throw new IllegalArgumentException(
          "content_hash must be 64 lower-case hex characters (SHA-256), got '"
              + abbreviate(e.getContentHash())
              + "'");
    }
    Duration retention =
        e.getRetention() == null ? defaultRetention : Duration.ofMillis(e.getRetention());
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be positive, got " + e.getRetention());
    }
    Instant fetchedAt = e.getFetchedAt();
    return new ContentVersion(
        e.getTenantId() == null ? "" : storable(e.getTenantId()),
        sourceId,
        e.getConnector().name(),
        itemId,
        e.getContentHash(),
        storable(e.getRequestId()),
        storable(e.getUrl()),
        storable(e.getTitle()),
        storable(e.getBody()),
        e.getTruncated(),
        storable(e.getContentType()),
        e.getPublishedAt(),
        fetchedAt,
        e.getSignalType().name(),
        e.getEventAt(),
        fetchedAt.plus(retention),
        storable(e.getMetadata()));
  }

  /** {@code s} with every U+0000 replaced by U+FFFD (see the class). */
  public static String storable(String s) {
    return s == null || s.indexOf('\0') < 0 ? s : s.replace('\0', '\uFFFD');
  }

  /** The map with every U+0000 in its keys and values replaced by U+FFFD; never null. */
  public static Map<String, String> storable(Map<String, String> metadata) {
    if (metadata == null || metadata.isEmpty()) {
      return Map.of();
    }
    var out = new HashMap<String, String>(metadata.size() * 2);
    metadata.forEach((k, v) -> out.put(storable(k), storable(v)));
    return Map.copyOf(out);
  }

  /**
   * The longest source, request or tenant id the sink stores: all three are keys or index columns
   * (Freshet's are UUIDs and tenant ids of at most 100 characters).
   */
  public static final int MAX_ID_LENGTH = 256;

  /** A non-blank id of at most {@link #MAX_ID_LENGTH} characters, or the reason it is poison. */
  public static void requireId(String value, String field) {
    require(value, field);
    requireIdLength(value, field);
  }

  /** Null, or at most {@link #MAX_ID_LENGTH} characters. */
  public static void requireIdLength(String value, String field) {
    if (value != null && value.length() > MAX_ID_LENGTH) {
      throw new IllegalArgumentException(
          field
              + " is "
              + value.length()
              + " characters, at most "
              + MAX_ID_LENGTH
              + " ('"
              + abbreviate(value)
              + "')");
    }
  }

  private static void require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " must not be blank");
    }
  }

  /** UTF-8 length of {@code s} without encoding it (a surrogate pair is 2 + 2 = 4 bytes). */
  static int utf8Length(String s) {
    int bytes = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      bytes += c < 0x80 ? 1 : c < 0x800 || Character.isSurrogate(c) ? 2 : 3;
    }
    return bytes;
  }

  private static String abbreviate(String s) {
    if (s == null) {
      return "null";
    }
    return s.length() <= 80 ? s : s.substring(0, 80) + "…";
  }
}
