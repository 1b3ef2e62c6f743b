package io.freshet.stats.testing;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.SignalType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Small builders of {@code FetchCompleted} outcomes and their item digests. */
public final class Outcomes {

  private static final AtomicLong REQUESTS = new AtomicLong();

  private Outcomes() {}

  /** A content hash (64 hex digits) derived from {@code name}. */
  public static String hash(String name) {
    long h = name.hashCode() * 0x9E3779B97F4A7C15L;
    String head = HexFormat.of().toHexDigits(h) + HexFormat.of().toHexDigits(~h);
    return head + head;
  }

  public static ItemDigest item(String name, ItemNovelty novelty) {
    return ItemDigest.newBuilder()
        .setItemId(name)
        .setContentHash(hash(name))
        .setNovelty(novelty)
        .build();
  }

  public static ItemDigest added(String name) {
    return item(name, ItemNovelty.added);
  }

  public static ItemDigest seen(String name) {
    return item(name, ItemNovelty.seen);
  }

  public static ItemDigest typed(String name, SignalType type) {
    ItemDigest d = added(name);
    d.setSignalType(type);
    return d;
  }

  public static ItemDigest withEvent(String name, Instant eventAt) {
    ItemDigest d = typed(name, SignalType.event);
    d.setEventAt(eventAt);
    return d;
  }

  public static ItemDigest published(String name, ItemNovelty novelty, Instant at) {
    ItemDigest d = item(name, novelty);
    d.setPublishedAt(at);
    return d;
  }

  public static Builder outcome(String sourceId, Instant finishedAt) {
    return new Builder(sourceId, finishedAt);
  }

  /** Builds one outcome; a fresh request id unless told. */
  public static final class Builder {
    private final String sourceId;
    private final Instant finishedAt;
    private FetchStatus status = FetchStatus.ok;
    private String requestId = "req-" + REQUESTS.incrementAndGet();
    private String tenantId = "";
    private final List<ItemDigest> items = new ArrayList<>();

    private Builder(String sourceId, Instant finishedAt) {
      this.sourceId = sourceId;
      this.finishedAt = finishedAt;
    }

    public Builder status(FetchStatus s) {
      this.status = s;
      return this;
    }

    public Builder request(String id) {
      this.requestId = id;
      return this;
    }

    /** The tenant that owns the source (empty, as an older worker sends, unless told). */
    public Builder tenant(String tenant) {
      this.tenantId = tenant;
      return this;
    }

    public Builder items(ItemDigest... digests) {
      items.addAll(List.of(digests));
      return this;
    }

    public Builder items(List<ItemDigest> digests) {
      items.addAll(digests);
      return this;
    }

    public FetchCompleted build() {
      return FetchCompleted.newBuilder()
          .setRequestId(requestId)
          .setSourceId(sourceId)
          .setTenantId(tenantId)
          .setEpoch(1)
          .setStatus(status)
          .setStartedAt(finishedAt.minusMillis(500))
          .setFinishedAt(finishedAt)
          .setItemCount(
              (int) items.stream().filter(i -> i.getNovelty() != ItemNovelty.seen).count())
          .setItems(List.copyOf(items))
          .setErrorKind(status == FetchStatus.failed ? "timeout" : null)
          .build();
    }
  }
}
