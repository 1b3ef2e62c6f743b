package io.freshet.worker.testing;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchRequested;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

/** FetchRequested builders for tests. */
public final class Requests {

  private Requests() {}

  public static FetchRequested.Builder feed(String url, Instant now) {
    return request(Connector.feed, url, now);
  }

  public static FetchRequested.Builder request(Connector connector, String url, Instant now) {
    return FetchRequested.newBuilder()
        .setRequestId(UUID.randomUUID().toString())
        .setSourceId(UUID.randomUUID().toString())
        .setTenantId("tenant-1")
        .setConnector(connector)
        .setUrl(url)
        .setConfig(Map.of())
        .setCursor(Map.of())
        .setEpoch(1)
        .setRequestedAt(now)
        .setDueAt(now)
        .setNotAfter(now.plus(Duration.ofMinutes(5)));
  }

  /** An RSS 2.0 document with items {@code ids}, each titled "Item <id>" (+ suffix when given). */
  public static String rss(String... ids) {
    StringBuilder out =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel>"
                + "<title>t</title><link>https://feed.example/</link><description>d</description>");
    for (String id : ids) {
      String[] parts = id.split("=", 2);
      String guid = parts[0];
      String text = parts.length > 1 ? parts[1] : "Body of " + guid;
      out.append("<item><title>Item ")
          .append(guid)
          .append("</title><guid>")
          .append(guid)
          .append("</guid><link>https://feed.example/")
          .append(guid)
          .append("</link><description>")
          .append(text)
          .append("</description><pubDate>Sat, 21 Nov 2026 09:00:00 GMT</pubDate></item>");
    }
    return out.append("</channel></rss>").toString();
  }
}
