package io.freshet.stack.bench;

import io.freshet.stack.PlainAvroDecoder;
import io.freshet.stack.demoweb.Catalog;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.launcher.Infrastructure;
import io.freshet.stack.launcher.Services;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import tools.jackson.databind.json.JsonMapper;

/**
 * End-to-end throughput of the whole local pipeline against the demo web, beside a bare HTTP-client
 * loop over the same demo web in the same run. A program, not a test: {@code
 * local-stack/bench/pipeline-benchmark.sh [sources] [rounds] [options]}.
 *
 * <p>The stack is the launcher's own ({@link Infrastructure}, {@link Services}, as {@code ./freshet
 * up} runs it): a standalone KRaft broker process, PostgreSQL, the registry, the four services each
 * its own process; the demo web (well-behaved sources) runs in this JVM. Round 0 is the first fetch
 * of every source right after its import (every item new); each later round is a fetch-now of every
 * source through the scheduler's API, after a pause in which the demo web publishes more. A round
 * ends when every source's outcome is applied on its row and every item its fetch emitted is
 * stored; its rate is sources / (last outcome applied or item stored − first claim).
 *
 * <p>Before each round, a bare loop — JDK HttpClient GETs, virtual threads, at most {@code
 * --concurrency} at once, nothing parsed or stored — reads every source's document {@code
 * --bare-passes} times from a twin server of the same demo web (the same catalog and clock in this
 * JVM, on another port), so that its reads do not count as "served" in the ground truth the
 * pipeline is reconciled against.
 *
 * <p>Where the time goes comes from the data: {@code FetchRequested.requested_at} (the claim), the
 * moment a {@code read_committed} consumer in this JVM sees each record of the three topics (on
 * topic), {@code FetchCompleted.started_at}/{@code finished_at} (the worker), {@code
 * content.activity_log.items_arrived} (the sink's count of a request's stored items; sampled every
 * 100 ms, a request's items being stored when first seen all counted) and the scheduler's row
 * ({@code scheduler.sources}: epoch moved on, lease released; sampled every 100 ms, the applied
 * time being the row's {@code updated_at} when first seen so). CPU seconds per process come from
 * the operating system ({@link ProcessHandle.Info#totalCpuDuration()}).
 */
public final class PipelineBenchmark {

  static final JsonMapper JSON = JsonMapper.builder().build();
  static final String REQUESTED = "freshet.fetch.requested.v1";
  static final String CONTENT = "freshet.content.fetched.v1";
  static final String COMPLETED = "freshet.fetch.completed.v1";

  /** Command-line options. */
  record Options(
      int sources,
      int rounds,
      int hosts,
      int concurrency,
      int barePasses,
      Duration gap,
      boolean apiTrigger,
      List<String> jvm,
      Map<String, Map<String, String>> env) {

    static Options parse(String[] args) {
      List<String> positional = new ArrayList<>();
      int hosts = 0; // one host per source unless given: politeness then holds nothing up
      int concurrency = 400;
      int passes = 8;
      Duration gap = Duration.ofSeconds(15);
      boolean apiTrigger = false;
      List<String> jvm = List.of();
      Map<String, Map<String, String>> env = new LinkedHashMap<>();
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--hosts" -> hosts = Integer.parseInt(args[++i]);
          case "--concurrency" -> concurrency = Integer.parseInt(args[++i]);
          case "--bare-passes" -> passes = Integer.parseInt(args[++i]);
          case "--gap" -> gap = Duration.ofSeconds(Long.parseLong(args[++i]));
          case "--trigger" -> {
            String t = args[++i];
            if (!t.equals("api") && !t.equals("sql")) {
              throw new IllegalArgumentException("--trigger is api or sql, got " + t);
            }
            apiTrigger = t.equals("api");
          }
          case "--jvm" -> jvm = List.of(args[++i].trim().split("\\s+"));
          case "--env" -> {
            // module:KEY=VALUE
            String spec = args[++i];
            int colon = spec.indexOf(':');
            int eq = spec.indexOf('=');
            if (colon < 1 || eq < colon) {
              throw new IllegalArgumentException("--env wants module:KEY=VALUE, got " + spec);
            }
            env.computeIfAbsent(spec.substring(0, colon), k -> new LinkedHashMap<>())
                .put(spec.substring(colon + 1, eq), spec.substring(eq + 1));
          }
          default -> {
            if (args[i].startsWith("--")) {
              throw new IllegalArgumentException("unknown option " + args[i]);
            }
            positional.add(args[i]);
          }
        }
      }
      int sources = positional.size() > 0 ? Integer.parseInt(positional.get(0)) : 1496;
      int rounds = positional.size() > 1 ? Integer.parseInt(positional.get(1)) : 5;
      if (hosts <= 0) {
        hosts = sources;
      }
      return new Options(sources, rounds, hosts, concurrency, passes, gap, apiTrigger, jvm, env);
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    PipelineBenchmark bench = new PipelineBenchmark(o);
    int exit = 0;
    try {
      bench.run();
    } catch (Exception e) {
      e.printStackTrace();
      exit = 1;
    } finally {
      bench.close();
    }
    System.exit(exit);
  }

  private final Options o;
  private BenchStack stack;
  private ProcessFigures figures;
  private TopicWatcher watcher;
  private PlainAvroDecoder avro;
  private final AtomicBoolean closed = new AtomicBoolean();

  PipelineBenchmark(Options o) {
    this.o = o;
  }

  void run() throws Exception {
    System.out.printf(
        "pipeline benchmark: %d demo sources (well-behaved) on %d hosts, %d rounds (trigger: %s),"
            + " bare loop concurrency %d x %d passes, %d s between rounds; %d cores%n",
        o.sources(),
        o.hosts(),
        o.rounds(),
        o.apiTrigger() ? "API calls" : "one statement",
        o.concurrency(),
        o.barePasses(),
        o.gap().toSeconds(),
        Runtime.getRuntime().availableProcessors());
    if (!o.env().isEmpty()) {
      System.out.println("service environment over the launcher's: " + o.env());
    }
    if (!o.jvm().isEmpty()) {
      System.out.println("service JVM options instead of the launcher's: " + o.jvm());
    }
    System.out.println("load at start: " + load());
    long t0 = System.nanoTime();
    // round 0 measures every source's first fetch right after the import: not spread out
    stack =
        new BenchStack(
            o.sources(),
            o.hosts(),
            1440,
            Catalog::fromBundledTraces,
            Map.of("FRESHET_SCHEDULER_WEB_IMPORT_SPREAD", "0s"),
            o.env(),
            Map.of(),
            o.jvm());
    figures = new ProcessFigures(stack);
    avro = new PlainAvroDecoder(stack.settings.registryCcompatUrl());
    watcher = new TopicWatcher(stack.settings.bootstrapServers());
    watcher.start();
    System.out.printf(
        "stack up in %.1f s (broker, PostgreSQL, registry, 4 services; demo web in this JVM)%n",
        (System.nanoTime() - t0) / 1e9);

    bareLoop(o.barePasses()); // warm-up of the client, the server and this JVM
    List<RoundResult> results = new ArrayList<>();
    for (int r = 0; r <= o.rounds(); r++) {
      if (r > 0) {
        Thread.sleep(o.gap().toMillis()); // the demo web publishes more meanwhile
      }
      results.add(round(r));
    }
    summary(results);
    System.out.println(
        "reconciliation with the demo web's ground truth: " + stack.reconcile().line());
    String notCounted = stack.notCounted();
    if (!notCounted.isEmpty()) {
      System.out.println("  " + notCounted);
    }
    System.out.println("load at end: " + load());
  }

  // ---------------------------------------------------------------- one round

  record RoundResult(
      int round,
      String kind,
      String load,
      double bare,
      double pipeline,
      double seconds,
      Map<String, Integer> statuses,
      long items,
      Map<String, double[]> stages,
      Map<String, Double> cpu,
      Map<String, Double> timeline) {}

  private RoundResult round(int r) throws Exception {
    String load = load();
    double bare = bareLoop(o.barePasses());
    Map<String, Long> epochBefore = epochs();
    watcher.drain(); // what came before this round is not this round's
    Map<String, Double> cpu0 = cpu();
    long trigger0 = System.currentTimeMillis();
    String kind;
    if (r == 0) {
      kind = "first fetches after import (every item new)";
      stack.importSources(JSON.createObjectNode());
      if (stack.demoBySourceId.size() != o.sources()) {
        throw new IllegalStateException(stack.demoBySourceId.size() + " sources imported");
      }
    } else if (o.apiTrigger()) {
      kind = "fetch-now of every source (API calls)";
      fetchNowAll();
    } else {
      kind = "fetch-now of every source (one statement)";
      fetchNowAllAtOnce();
    }
    long triggered = System.currentTimeMillis();
    Round round = new Round(epochBefore);
    round.await(Duration.ofMinutes(10));
    Map<String, Double> cpu1 = cpu();
    Map<String, Double> cpu = new TreeMap<>();
    cpu1.forEach((k, v) -> cpu.put(k, v - cpu0.getOrDefault(k, 0.0)));
    round.storedTimes();

    long start = round.reqs.values().stream().mapToLong(q -> q.requestedAt).min().orElseThrow();
    long endApplied = round.applied.values().stream().mapToLong(Long::longValue).max().orElse(0);
    long endStored =
        round.contents.stream().mapToLong(c -> c.storedAt).filter(t -> t > 0).max().orElse(0);
    long end = Math.max(endApplied, endStored);
    double seconds = (end - start) / 1000.0;
    double pipeline = o.sources() / seconds;

    Map<String, List<Long>> lags = new LinkedHashMap<>();
    // "On topic" is when this JVM's read_committed consumer received the record, or the first use
    // of it downstream if that was earlier (a consumer in a busy JVM can be late).
    for (Req q : round.reqs.values()) {
      Done d = round.done.get(q.requestId);
      Long applied = round.applied.get(q.sourceId);
      long requestOnTopic = d == null ? q.seenAt : Math.min(q.seenAt, d.startedAt);
      add(lags, "claim -> request on topic", requestOnTopic - q.requestedAt);
      if (d != null) {
        long completionOnTopic = applied == null ? d.seenAt : Math.min(d.seenAt, applied);
        add(lags, "request on topic -> fetch started", d.startedAt - requestOnTopic);
        add(lags, "fetch started -> fetched", d.finishedAt - d.startedAt);
        add(lags, "fetched -> completion on topic", completionOnTopic - d.finishedAt);
        if (applied != null) {
          add(lags, "completion on topic -> outcome applied", applied - completionOnTopic);
        }
      }
      if (applied != null) {
        add(lags, "claim -> outcome applied (total)", applied - q.requestedAt);
      }
    }
    for (Item c : round.contents) {
      if (c.storedAt > 0) {
        long onTopic = Math.min(c.seenAt, c.storedAt);
        add(lags, "item fetched -> on topic", onTopic - c.fetchedAt);
        add(lags, "item on topic -> stored", c.storedAt - onTopic);
        Req q = round.reqs.get(c.requestId);
        if (q != null) {
          add(lags, "claim -> item stored (total)", c.storedAt - q.requestedAt);
        }
      }
    }
    Map<String, double[]> stages = new LinkedHashMap<>();
    lags.forEach((k, v) -> stages.put(k, stats(v)));

    Map<String, Double> timeline = new LinkedHashMap<>();
    timeline.put("trigger sent", (triggered - trigger0) / 1000.0);
    timeline.put("first claim", (start - trigger0) / 1000.0);
    timeline.put("last claim", (maxOf(round.reqs.values(), q -> q.requestedAt) - trigger0) / 1e3);
    timeline.put(
        "first fetch started", (minOf(round.done.values(), d -> d.startedAt) - trigger0) / 1e3);
    timeline.put(
        "last fetch started", (maxOf(round.done.values(), d -> d.startedAt) - trigger0) / 1e3);
    timeline.put("last fetched", (maxOf(round.done.values(), d -> d.finishedAt) - trigger0) / 1e3);
    timeline.put(
        "last completion on topic", (maxOf(round.done.values(), d -> d.seenAt) - trigger0) / 1e3);
    timeline.put("last outcome applied", (endApplied - trigger0) / 1e3);
    if (endStored > 0) {
      timeline.put("last item stored", (endStored - trigger0) / 1e3);
    }

    Map<String, Integer> statuses = new TreeMap<>();
    round.done.values().forEach(d -> statuses.merge(d.status, 1, Integer::sum));
    RoundResult result =
        new RoundResult(
            r,
            kind,
            load,
            bare,
            pipeline,
            seconds,
            statuses,
            round.contents.size(),
            stages,
            cpu,
            timeline);
    print(result);
    return result;
  }

  private static void add(Map<String, List<Long>> lags, String stage, long ms) {
    lags.computeIfAbsent(stage, k -> new ArrayList<>()).add(ms);
  }

  private static <T> long maxOf(Collection<T> xs, java.util.function.ToLongFunction<T> f) {
    return xs.stream().mapToLong(f).max().orElse(0);
  }

  private static <T> long minOf(Collection<T> xs, java.util.function.ToLongFunction<T> f) {
    return xs.stream().mapToLong(f).min().orElse(0);
  }

  /** median, p95, max, count (ms). */
  private static double[] stats(List<Long> xs) {
    List<Long> s = new ArrayList<>(xs);
    s.sort(Comparator.naturalOrder());
    return new double[] {
      s.get((s.size() - 1) / 2), s.get((int) Math.ceil(0.95 * s.size()) - 1), s.getLast(), s.size()
    };
  }

  private void print(RoundResult r) {
    System.out.printf("%n--- round %d: %s (load before: %s)%n", r.round(), r.kind(), r.load());
    System.out.printf(
        "bare GET loop  : %8.1f fetches/s%npipeline       : %8.1f fetches/s (%d sources in %.2f s,"
            + " first claim -> last outcome applied / item stored)%nratio          : %8.2f%n",
        r.bare(), r.pipeline(), o.sources(), r.seconds(), r.pipeline() / r.bare());
    System.out.printf("outcomes %s, %d items on the content topic%n", r.statuses(), r.items());
    System.out.printf("%-42s %8s %8s %8s %6s%n", "stage (ms)", "median", "p95", "max", "n");
    r.stages()
        .forEach(
            (k, v) ->
                System.out.printf("%-42s %8.0f %8.0f %8.0f %6.0f%n", k, v[0], v[1], v[2], v[3]));
    StringBuilder t = new StringBuilder("timeline (s after the trigger):");
    r.timeline().forEach((k, v) -> t.append(String.format(" %s %.2f;", k, v)));
    System.out.println(t);
    double total = r.cpu().values().stream().mapToDouble(Double::doubleValue).sum();
    StringBuilder c =
        new StringBuilder(
            String.format(
                "CPU s during the round (%.1f s of %.1f s x %d cores):",
                total, r.seconds(), Runtime.getRuntime().availableProcessors()));
    r.cpu().entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(e -> c.append(String.format(" %s %.1f;", e.getKey(), e.getValue())));
    System.out.println(c);
  }

  private void summary(List<RoundResult> results) {
    System.out.printf("%n=== summary (%d sources, %d hosts)%n", o.sources(), o.hosts());
    System.out.printf(
        "%-6s %-46s %10s %10s %7s%n", "round", "what", "bare/s", "pipeline/s", "ratio");
    for (RoundResult r : results) {
      System.out.printf(
          "%-6d %-46s %10.1f %10.1f %7.2f%n",
          r.round(), r.kind(), r.bare(), r.pipeline(), r.pipeline() / r.bare());
    }
    List<Double> ratios =
        results.stream()
            .filter(r -> r.round() > 0)
            .map(r -> r.pipeline() / r.bare())
            .sorted()
            .toList();
    if (!ratios.isEmpty()) {
      System.out.printf(
          "median ratio of the fetch-now rounds: %.2f (goal >= 0.3)%n",
          ratios.get((ratios.size() - 1) / 2));
    }
  }

  // ---------------------------------------------------------------- the bare loop

  /** GETs of every source's document from the twin, {@code passes} times; fetches/s. */
  private double bareLoop(int passes) throws Exception {
    List<URI> uris = new ArrayList<>();
    for (DemoSource s : stack.twin.catalog().sources()) {
      uris.add(URI.create(stack.twin.url(s)));
    }
    int n = uris.size() * passes;
    var client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    Semaphore permits = new Semaphore(o.concurrency());
    AtomicInteger failures = new AtomicInteger();
    AtomicLong bytes = new AtomicLong();
    long t0 = System.nanoTime();
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < n; i++) {
        URI uri = uris.get(i % uris.size());
        permits.acquire();
        pool.submit(
            () -> {
              try {
                var response =
                    client.send(
                        HttpRequest.newBuilder(uri)
                            .header("Accept-Encoding", "gzip, deflate")
                            .build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                bytes.addAndGet(response.body().length);
                if (response.statusCode() != 200) {
                  failures.incrementAndGet();
                }
              } catch (IOException | InterruptedException e) {
                failures.incrementAndGet();
              } finally {
                permits.release();
              }
              return null;
            });
      }
    }
    double rate = n / ((System.nanoTime() - t0) / 1e9);
    if (failures.get() > 0) {
      System.out.printf("bare loop: %d of %d requests not 200%n", failures.get(), n);
    }
    return rate;
  }

  // ---------------------------------------------------------------- a round's data

  record Req(String requestId, String sourceId, long epoch, long requestedAt, long seenAt) {}

  record Done(
      String requestId,
      String sourceId,
      String status,
      int itemCount,
      long startedAt,
      long finishedAt,
      long seenAt) {}

  static final class Item {
    final String requestId;
    final String itemId;
    final String hash;
    final long fetchedAt;
    final long seenAt;
    long storedAt;

    Item(String requestId, String itemId, String hash, long fetchedAt, long seenAt) {
      this.requestId = requestId;
      this.itemId = itemId;
      this.hash = hash;
      this.fetchedAt = fetchedAt;
      this.seenAt = seenAt;
    }
  }

  /** What one round's records and rows say, gathered until the round is complete. */
  final class Round {
    final Map<String, Long> epochBefore;
    final Map<String, Req> reqs = new HashMap<>();
    final Map<String, Done> done = new HashMap<>();
    final List<Item> contents = new ArrayList<>();
    final Map<String, Long> applied = new HashMap<>();

    /** Request id → when its activity-log row first counted all its items (sampled). */
    final Map<String, Long> stored = new HashMap<>();

    Round(Map<String, Long> epochBefore) {
      this.epochBefore = epochBefore;
    }

    void await(Duration atMost) throws Exception {
      long deadline = System.currentTimeMillis() + atMost.toMillis();
      while (true) {
        take();
        sampleApplied();
        if (applied.size() >= o.sources() && done.size() >= o.sources() && itemsStored()) {
          take(); // records seen meanwhile
          return;
        }
        if (System.currentTimeMillis() > deadline) {
          throw new IllegalStateException(
              String.format(
                  "round not complete after %s: %d requests, %d completions, %d applied",
                  atMost, reqs.size(), done.size(), applied.size()));
        }
        Thread.sleep(100);
      }
    }

    private void take() {
      for (TopicWatcher.Seen s : watcher.drain()) {
        ConsumerRecord<byte[], byte[]> rec = s.record();
        long seen = s.at();
        GenericRecord v = avro.decode(rec.value());
        String requestId = v.get("request_id").toString();
        switch (rec.topic()) {
          case REQUESTED ->
              reqs.put(
                  requestId,
                  new Req(
                      requestId,
                      v.get("source_id").toString(),
                      (Long) v.get("epoch"),
                      (Long) v.get("requested_at"),
                      seen));
          case COMPLETED ->
              done.put(
                  requestId,
                  new Done(
                      requestId,
                      v.get("source_id").toString(),
                      v.get("status").toString(),
                      (Integer) v.get("item_count"),
                      (Long) v.get("started_at"),
                      (Long) v.get("finished_at"),
                      seen));
          case CONTENT ->
              contents.add(
                  new Item(
                      requestId,
                      v.get("item_id").toString(),
                      v.get("content_hash").toString(),
                      (Long) v.get("fetched_at"),
                      seen));
          default -> {}
        }
      }
    }

    /** A source's outcome is applied once its epoch moved on and its lease is released. */
    private void sampleApplied() throws SQLException {
      long now = System.currentTimeMillis();
      try (Connection c = stack.connect();
          Statement st = c.createStatement();
          ResultSet rs =
              st.executeQuery(
                  "SELECT id::text, epoch, lease_until IS NULL, updated_at FROM scheduler.sources")) {
        while (rs.next()) {
          String id = rs.getString(1);
          if (applied.containsKey(id)
              || rs.getLong(2) <= epochBefore.getOrDefault(id, 0L)
              || !rs.getBoolean(3)) {
            continue;
          }
          // updated_at is the outcome's write unless stats were applied since: never later than now
          applied.put(id, Math.min(rs.getTimestamp(4).getTime(), now));
        }
      }
    }

    /**
     * Whether every item the round's fetches emitted is stored: each request with items has its
     * activity-log row count as many arrivals as its completion reported, sampled like the outcomes
     * (the first sample that sees it complete is its store time, to the sampling step).
     */
    private boolean itemsStored() throws SQLException {
      List<String> pending = new ArrayList<>();
      int expected = 0;
      for (Done d : done.values()) {
        expected += d.itemCount();
        if (d.itemCount() > 0 && !stored.containsKey(d.requestId())) {
          pending.add(d.requestId());
        }
      }
      if (!pending.isEmpty()) {
        long now = System.currentTimeMillis();
        try (Connection c = stack.connect();
            PreparedStatement st =
                c.prepareStatement(
                    "SELECT request_id, items_arrived FROM content.activity_log"
                        + " WHERE request_id = ANY(?)")) {
          st.setArray(1, c.createArrayOf("text", pending.toArray()));
          try (ResultSet rs = st.executeQuery()) {
            while (rs.next()) {
              Done d = done.get(rs.getString(1));
              if (rs.getInt(2) >= d.itemCount()) {
                stored.put(d.requestId(), now);
              }
            }
          }
        }
      }
      long withItems = done.values().stream().filter(d -> d.itemCount() > 0).count();
      return stored.size() >= withItems && contents.size() >= expected;
    }

    /** Each item seen on the content topic is stored when its request's items were. */
    void storedTimes() {
      for (Item i : contents) {
        i.storedAt = stored.getOrDefault(i.requestId, 0L);
      }
    }
  }

  // ---------------------------------------------------------------- the topics, as a subscriber

  /**
   * A {@code read_committed} consumer of the three topics in its own thread, noting when each
   * record became visible to it.
   */
  static final class TopicWatcher extends Thread {

    /** A record and when this consumer received it (wall ms). */
    record Seen(ConsumerRecord<byte[], byte[]> record, long at) {}

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ConcurrentLinkedQueue<Seen> seen = new ConcurrentLinkedQueue<>();
    private volatile boolean running = true;

    TopicWatcher(String bootstrap) {
      this(bootstrap, 1);
    }

    /**
     * Watches partitions 0, {@code every}, 2 × {@code every}… of each topic: every topic is keyed
     * by source id with as many partitions, so that is the same sample of sources on all three, and
     * the broker serves and this JVM decodes only that share (1: all).
     */
    TopicWatcher(String bootstrap, int every) {
      super("topic-watcher");
      setDaemon(true);
      Properties p = new Properties();
      p.put("bootstrap.servers", bootstrap);
      p.put("key.deserializer", ByteArrayDeserializer.class.getName());
      p.put("value.deserializer", ByteArrayDeserializer.class.getName());
      p.put("isolation.level", "read_committed");
      p.put("fetch.min.bytes", "1");
      p.put("fetch.max.wait.ms", "50");
      p.put("enable.auto.commit", "false");
      consumer = new KafkaConsumer<>(p);
      List<TopicPartition> parts = new ArrayList<>();
      for (String topic : List.of(REQUESTED, CONTENT, COMPLETED)) {
        consumer.partitionsFor(topic).stream()
            .filter(i -> i.partition() % every == 0)
            .forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
      }
      consumer.assign(parts);
      consumer.seekToEnd(parts);
      parts.forEach(consumer::position);
    }

    @Override
    public void run() {
      try {
        while (running) {
          var records = consumer.poll(Duration.ofMillis(100));
          long now = System.currentTimeMillis();
          for (ConsumerRecord<byte[], byte[]> r : records) {
            seen.add(new Seen(r, now));
          }
        }
      } finally {
        consumer.close();
      }
    }

    List<Seen> drain() {
      List<Seen> out = new ArrayList<>();
      Seen r;
      while ((r = seen.poll()) != null) {
        out.add(r);
      }
      return out;
    }

    void shutdown() {
      running = false;
    }
  }

  // ---------------------------------------------------------------- the scheduler and the store

  private Map<String, Long> epochs() throws SQLException {
    Map<String, Long> out = new HashMap<>();
    try (Connection c = stack.connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id::text, epoch FROM scheduler.sources")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getLong(2));
      }
    }
    return out;
  }

  /** {@code POST /sources/{id}/fetch} for every source, 16 at a time. */
  private void fetchNowAll() throws Exception {
    Semaphore permits = new Semaphore(16);
    try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
      for (String id : stack.demoBySourceId.keySet()) {
        permits.acquire();
        pool.submit(
            () -> {
              try {
                stack.post("/sources/" + id + "/fetch", "application/json", "");
              } finally {
                permits.release();
              }
              return null;
            });
      }
    }
  }

  /**
   * What {@code POST /sources/{id}/fetch} does to a source (the scheduler's {@code
   * ScheduleRepository.requestFetch}: flagged manual, due now unless a lease is active), for every
   * source in one statement, so that 1,000 API calls do not pace the round.
   */
  private void fetchNowAllAtOnce() throws SQLException {
    try (Connection c = stack.connect();
        Statement st = c.createStatement()) {
      int n =
          st.executeUpdate(
              "UPDATE scheduler.sources SET manual_requested = true,"
                  + " next_due_at = CASE WHEN lease_until IS NULL OR lease_until <= now()"
                  + " THEN least(next_due_at, now()) ELSE next_due_at END,"
                  + " updated_at = now() WHERE enabled");
      if (n != o.sources()) {
        throw new IllegalStateException(n + " sources made due");
      }
    }
  }

  // ---------------------------------------------------------------- machine figures

  /** {@code uptime}'s load averages (1, 5, 15 min). */
  static String load() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (IOException e) {
      return "n/a";
    }
  }

  /** CPU seconds so far of every process of the stack, by part; this JVM as "bench + demo web". */
  private Map<String, Double> cpu() {
    Map<String, Double> out = new TreeMap<>();
    figures.sample().cpuMs().forEach((part, ms) -> out.put(part, ms / 1000));
    return out;
  }

  // ---------------------------------------------------------------- lifecycle

  void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (watcher != null) {
      watcher.shutdown();
    }
    if (stack != null) {
      stack.close();
    }
  }
}
