package io.freshet.schemas.testdata;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** One filled-in example of each event. */
public final class Events {

  public static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

  private Events() {}

  public static FetchRequested fetchRequested() {
    return FetchRequested.newBuilder()
        .setRequestId("req-1")
        .setSourceId("src-1")
        .setTenantId("tenant-a")
        .setConnector(Connector.feed)
        .setUrl("https://example.org/feed.xml")
        .setConfig(Map.of("item_limit", "50"))
        .setCursor(Map.of("etag", "\"abc\""))
        .setCredentialsEncrypted(ByteBuffer.wrap(new byte[] {9, 8, 7}))
        .setEpoch(3)
        .setRequestedAt(T)
        .setDueAt(T.minusSeconds(60))
        .setNotAfter(T.plusSeconds(300))
        .setManual(true)
        .setPriority(5)
        .build();
  }

  public static ContentFetched contentFetched() {
    return ContentFetched.newBuilder()
        .setRequestId("req-1")
        .setSourceId("src-1")
        .setTenantId("tenant-a")
        .setConnector(Connector.ical)
        .setRetention(86_400_000L)
        .setItemId("uid-42@example.org")
        .setContentHash("a".repeat(64))
        .setUrl("https://example.org/events/42")
        .setTitle("Food shelf open day")
        .setBody("Come by on Saturday.")
        .setTruncated(false)
        .setContentType("text/calendar")
        .setPublishedAt(T.minusSeconds(3600))
        .setFetchedAt(T)
        .setSignalType(SignalType.event)
        .setEventAt(T.plusSeconds(86_400 * 3))
        .setMetadata(Map.of("location", "Main St 1"))
        .build();
  }

  public static FetchCompleted fetchCompleted() {
    return FetchCompleted.newBuilder()
        .setRequestId("req-1")
        .setSourceId("src-1")
        .setTenantId("tenant-a")
        .setEpoch(3)
        .setStatus(FetchStatus.partial)
        .setHttpStatus(200)
        .setErrorKind("parse")
        .setErrorMessage("item 3: no title and no link")
        .setAttempts(2)
        .setStartedAt(T)
        .setFinishedAt(T.plusMillis(850))
        .setBytes(12_345)
        .setItemCount(1)
        .setItems(
            List.of(
                ItemDigest.newBuilder()
                    .setItemId("uid-42@example.org")
                    .setContentHash("a".repeat(64))
                    .setPublishedAt(T.minusSeconds(3600))
                    .setSignalType(SignalType.event)
                    .setEventAt(T.plusSeconds(86_400 * 3))
                    .setNovelty(ItemNovelty.changed)
                    .build()))
        .setCursor(Map.of("etag", "\"def\""))
        .setRetryAfter(T.plusSeconds(120))
        .build();
  }

  public static SourceStats sourceStats() {
    return SourceStats.newBuilder()
        .setSourceId("src-1")
        .setWindowFetches(20)
        .setAvgSignalYield(2.5)
        .setDominantSignalType(SignalType.ask)
        .setTypeCounts(Map.of("ask", 30L, "informative", 20L))
        .setMedianDaysToEvent(4.5)
        .setPublishIntervalAvg(3_600_000L)
        .setRecentPublishedAt(List.of(T.minusSeconds(60), T.minusSeconds(3660)))
        .setConsecutiveMisses(0)
        .setConsecutiveEmpty(1)
        .setChangeRate(0.8)
        .setUpdatedAt(T)
        .build();
  }
}
