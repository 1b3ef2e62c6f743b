package io.freshet.cadence.replay;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Each source's observed change history, rebuilt from its {@code FetchCompleted} outcomes: one
 * change per item a fetch marked added or changed, the first time its content hash is seen for the
 * source (an item re-marked new by a redelivered or re-emitted request is one change, as in the
 * stats). A change is dated by the item's publication time when it has one not after the fetch,
 * else by the fetch that found it. Also counts the fetches actually spent, for the default budget.
 * Instants are kept as recorded (wall clock); {@link #writeTrace} puts them on the simulated
 * timeline.
 */
public final class ChangeHistory {

  /** One change: when, its signal type, its event date (or null). */
  public record Change(Instant at, String signalType, Instant eventAt) {}

  private final Map<String, List<Change>> changes = new TreeMap<>();
  private final Map<String, Set<String>> counted = new TreeMap<>();
  private long fetches;
  private Instant first;
  private Instant last;

  /** Adds one outcome (in topic order per source). */
  public void add(FetchCompleted o) {
    if (o.getStatus() == FetchStatus.expired) {
      return;
    }
    fetches++;
    Instant at = o.getFinishedAt();
    first = first == null || at.isBefore(first) ? at : first;
    last = last == null || at.isAfter(last) ? at : last;
    if (o.getStatus() != FetchStatus.ok && o.getStatus() != FetchStatus.partial) {
      return;
    }
    Set<String> seen = counted.computeIfAbsent(o.getSourceId(), k -> new HashSet<>());
    for (ItemDigest item : o.getItems()) {
      if (item.getNovelty() == ItemNovelty.seen || !seen.add(item.getContentHash())) {
        continue;
      }
      Instant published = item.getPublishedAt();
      Instant when = published != null && !published.isAfter(at) ? published : at;
      changes
          .computeIfAbsent(o.getSourceId(), k -> new ArrayList<>())
          .add(new Change(when, item.getSignalType().name(), item.getEventAt()));
    }
  }

  /**
   * Adds one emitted item from {@code freshet.content.fetched.v1} (the optional second source of
   * evidence): a change unless its content hash was counted for the source already, from either
   * topic. It is not a fetch.
   */
  public void add(ContentFetched c) {
    Set<String> seen = counted.computeIfAbsent(c.getSourceId(), k -> new HashSet<>());
    if (!seen.add(c.getContentHash())) {
      return;
    }
    Instant published = c.getPublishedAt();
    Instant when =
        published != null && !published.isAfter(c.getFetchedAt()) ? published : c.getFetchedAt();
    changes
        .computeIfAbsent(c.getSourceId(), k -> new ArrayList<>())
        .add(new Change(when, c.getSignalType().name(), c.getEventAt()));
  }

  /** Sources with at least one change. */
  public int sources() {
    return changes.size();
  }

  public long changes() {
    return changes.values().stream().mapToLong(List::size).sum();
  }

  /** Fetch attempts read (every status but expired). */
  public long fetches() {
    return fetches;
  }

  /** Earliest fetch read, or null. */
  public Instant first() {
    return first;
  }

  /** Latest fetch read, or null. */
  public Instant last() {
    return last;
  }

  /**
   * Writes the simulator's trace format, {@code source_id,timestamp_iso,signal_type,event_at},
   * sorted by source then time, with every instant on {@code timeline}'s simulated time.
   */
  void writeTrace(Writer out, Timeline timeline) throws IOException {
    out.write("source_id,timestamp_iso,signal_type,event_at\n");
    for (var e : changes.entrySet()) {
      List<Change> list = new ArrayList<>(e.getValue());
      list.sort(Comparator.comparing(Change::at));
      for (Change c : list) {
        out.write(
            e.getKey()
                + ","
                + timeline.toModel(c.at())
                + ","
                + c.signalType()
                + ","
                + (c.eventAt() == null ? "" : timeline.toModel(c.eventAt()).toString())
                + "\n");
      }
    }
  }
}
