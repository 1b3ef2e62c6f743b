package io.freshet.sink.testing;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

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
}
