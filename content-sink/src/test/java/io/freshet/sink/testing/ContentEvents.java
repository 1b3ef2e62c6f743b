package io.freshet.sink.testing;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** Small builders of {@code ContentFetched} test events. */
public final class ContentEvents {

  private ContentEvents() {}

  /** Version {@code version} of item {@code item} of {@code source}, fetched at {@code at}. */
  public static ContentFetched item(String source, String item, int version, Instant at) {
    return ContentFetched.newBuilder()
        .setRequestId(source + ":" + at.toEpochMilli())
        .setSourceId(source)
        .setTenantId("tenant-a")
        .setConnector(Connector.feed)
        .setItemId(item)
        .setContentHash(sha256(item + "@v" + version))
        .setTitle(item + " v" + version)
        .setBody("body of " + item + " version " + version)
        .setUrl("https://example.org/" + item)
        .setPublishedAt(at.minusSeconds(60))
        .setFetchedAt(at)
        .build();
  }

  public static String sha256(String s) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The outcome of request {@code requestId} of {@code source}: {@code ok}, having read {@code
   * listed} (item id, hash, novelty) and emitted the added and changed ones.
   */
  public static FetchCompleted completed(
      String source, String requestId, Instant startedAt, List<ItemDigest> listed) {
    int emitted = (int) listed.stream().filter(d -> d.getNovelty() != ItemNovelty.seen).count();
    return FetchCompleted.newBuilder()
        .setRequestId(requestId)
        .setSourceId(source)
        .setTenantId("tenant-a")
        .setEpoch(1)
        .setStatus(FetchStatus.ok)
        .setHttpStatus(200)
        .setStartedAt(startedAt)
        .setFinishedAt(startedAt.plusSeconds(2))
        .setBytes(1234)
        .setItemCount(emitted)
        .setItems(listed)
        .setCursor(Map.of("etag", "\"" + requestId + "\""))
        .build();
  }

  /** The digest of version {@code version} of {@code item}, as a fetch lists it. */
  public static ItemDigest digest(String item, int version, ItemNovelty novelty) {
    return ItemDigest.newBuilder()
        .setItemId(item)
        .setContentHash(sha256(item + "@v" + version))
        .setNovelty(novelty)
        .build();
  }
}
