package io.freshet.stack.bench;

import io.freshet.stack.PlainAvroDecoder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The per-stage lag of the fetches of one window of sustained load, from the same data as {@link
 * PipelineBenchmark}'s rounds: {@code FetchRequested.requested_at} (the claim), when this JVM's
 * {@code read_committed} consumer saw each record, {@code FetchCompleted.started_at}/{@code
 * finished_at}, the sink's {@code content.activity_log.items_arrived} and the scheduler's row
 * (epoch, lease released, {@code updated_at}), sampled every {@link #sample} call (a fetch whose
 * row was claimed again before a sample saw it released has no applied time and is left out of that
 * stage). Fetches claimed in the window are counted. The watcher may see only a share of the
 * partitions ({@link SteadyBenchmark#LAG_SAMPLE}): the stages are then those of that sample of
 * sources, and the measurement costs the stack that much less.
 */
final class SteadyLags {

  private record Req(long requestedAt, long seenAt, String sourceId, long epoch) {}

  private record Done(long startedAt, long finishedAt, long seenAt, int items) {}

  private final PipelineBenchmark.TopicWatcher watcher;
  private final PlainAvroDecoder avro;
  private final Map<String, Req> reqs = new HashMap<>();
  private final Map<String, Done> done = new HashMap<>();
  private final List<long[]> items = new ArrayList<>(); // fetched_at, seen
  private final Map<String, Long> stored = new HashMap<>(); // request id -> all its items stored
  private final Map<String, Long> applied = new HashMap<>(); // "id:epoch" -> applied at
  private long windowStart;
  private long itemsInWindow;

  SteadyLags(PipelineBenchmark.TopicWatcher watcher, PlainAvroDecoder avro) {
    this.watcher = watcher;
    this.avro = avro;
  }

  /** Forgets what came before: the window starts now. */
  void start() {
    watcher.drain();
    reqs.clear();
    done.clear();
    items.clear();
    applied.clear();
    stored.clear();
    itemsInWindow = 0;
    windowStart = System.currentTimeMillis();
  }

  /** Takes what the topics showed since the last call and samples the scheduler's rows. */
  void sample(Connection c) throws SQLException {
    for (PipelineBenchmark.TopicWatcher.Seen s : watcher.drain()) {
      ConsumerRecord<byte[], byte[]> rec = s.record();
      GenericRecord v = avro.decode(rec.value());
      String id = v.get("request_id").toString();
      switch (rec.topic()) {
        case PipelineBenchmark.REQUESTED ->
            reqs.put(
                id,
                new Req(
                    (Long) v.get("requested_at"),
                    s.at(),
                    v.get("source_id").toString(),
                    (Long) v.get("epoch")));
        case PipelineBenchmark.COMPLETED ->
            done.put(
                id,
                new Done(
                    (Long) v.get("started_at"),
                    (Long) v.get("finished_at"),
                    s.at(),
                    (Integer) v.get("item_count")));
        case PipelineBenchmark.CONTENT -> {
          itemsInWindow++;
          items.add(new long[] {(Long) v.get("fetched_at"), s.at()});
        }
        default -> {}
      }
    }
    long now = System.currentTimeMillis();
    try (Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT id::text, epoch, updated_at FROM scheduler.sources WHERE lease_until IS NULL"
                    + " AND updated_at > now() - interval '10 seconds'")) {
      while (rs.next()) {
        applied.putIfAbsent(
            rs.getString(1) + ":" + rs.getLong(2), Math.min(rs.getTimestamp(3).getTime(), now));
      }
    }
    sampleStored(c, now);
  }

  /**
   * A request's items are stored when the sink's activity-log row counts them all (sampled, as in
   * {@link PipelineBenchmark}).
   */
  private void sampleStored(Connection c, long now) throws SQLException {
    List<String> pending = new ArrayList<>();
    for (var e : done.entrySet()) {
      if (e.getValue().items() > 0 && !stored.containsKey(e.getKey())) {
        pending.add(e.getKey());
      }
    }
    if (pending.isEmpty()) {
      return;
    }
    try (PreparedStatement st =
        c.prepareStatement(
            "SELECT request_id, items_arrived FROM content.activity_log WHERE request_id = ANY(?)")) {
      st.setArray(1, c.createArrayOf("text", pending.toArray()));
      try (ResultSet rs = st.executeQuery()) {
        while (rs.next()) {
          if (rs.getInt(2) >= done.get(rs.getString(1)).items()) {
            stored.put(rs.getString(1), now);
          }
        }
      }
    }
  }

  /** Content records seen since {@link #start} (on the watched partitions). */
  long items() {
    return itemsInWindow;
  }

  /** Completions seen since {@link #start} (on the watched partitions). */
  long completions() {
    return done.size();
  }

  /** Stage → median, p95, max, n (ms) of the fetches claimed since {@link #start}. */
  Map<String, double[]> stages() {
    Map<String, List<Long>> lags = new LinkedHashMap<>();
    for (var e : reqs.entrySet()) {
      Req q = e.getValue();
      if (q.requestedAt() < windowStart) {
        continue;
      }
      Done d = done.get(e.getKey());
      Long at = applied.get(q.sourceId() + ":" + q.epoch());
      long onTopic = d == null ? q.seenAt() : Math.min(q.seenAt(), d.startedAt());
      add(lags, "claim -> request on topic", onTopic - q.requestedAt());
      if (d != null) {
        long completionOnTopic = at == null ? d.seenAt() : Math.min(d.seenAt(), at);
        add(lags, "request on topic -> fetch started", d.startedAt() - onTopic);
        add(lags, "fetch started -> fetched", d.finishedAt() - d.startedAt());
        add(lags, "fetched -> completion on topic", completionOnTopic - d.finishedAt());
        if (at != null) {
          add(lags, "completion on topic -> outcome applied", at - completionOnTopic);
        }
      }
      if (at != null) {
        add(lags, "claim -> outcome applied (total)", at - q.requestedAt());
      }
      Long itemsStored = stored.get(e.getKey());
      if (d != null && itemsStored != null) {
        add(lags, "fetched -> its items stored (sampled)", itemsStored - d.finishedAt());
        add(lags, "claim -> its items stored (total)", itemsStored - q.requestedAt());
      }
    }
    for (long[] i : items) {
      if (i[0] >= windowStart) {
        add(lags, "item fetched -> on topic", i[1] - i[0]);
      }
    }
    Map<String, double[]> out = new LinkedHashMap<>();
    lags.forEach((k, v) -> out.put(k, stats(v)));
    return out;
  }

  private static void add(Map<String, List<Long>> lags, String stage, long ms) {
    lags.computeIfAbsent(stage, k -> new ArrayList<>()).add(ms);
  }

  private static double[] stats(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    s.sort(Comparator.naturalOrder());
    return new double[] {
      s.get((s.size() - 1) / 2), s.get((int) Math.ceil(0.95 * s.size()) - 1), s.getLast(), s.size()
    };
  }
}
