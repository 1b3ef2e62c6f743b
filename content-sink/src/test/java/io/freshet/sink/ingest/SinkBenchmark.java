package io.freshet.sink.ingest;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.sink.ContentSinkApplication;
import io.freshet.sink.config.SinkProperties;
import io.freshet.sink.testing.ContentEvents;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.PostgresFixture;
import io.freshet.testsupport.RealInfrastructure.Component;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.flywaydb.core.Flyway;
import org.postgresql.PGConnection;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * Rows per second stored by the sink path (Kafka in, the service's own listener, batches into
 * PostgreSQL) beside a raw {@code COPY} of the same rows into the same table, in the same run on
 * the real broker, registry and PostgreSQL of test-support; prints both and their ratio. Then
 * compares the three ways of writing one batch's upsert (ADR 0005): {@code unnest} arrays (what the
 * sink uses), a multi-row {@code VALUES} list, and {@code COPY} into a staging table then one merge
 * statement — first on an empty table (every row new), then the same batches again (every row a
 * redelivery). Not a test: run it with {@code content-sink/bench/sink-benchmark.sh}.
 *
 * <p>Arguments (optional): {@code --rows N} (100000) events through the sink path; {@code --body B}
 * (600) characters of body per item; {@code --sources S} (1000); {@code --statement-rows M} (50000)
 * rows per statement strategy; {@code --batch K} (500) rows per statement; {@code --max-poll P}
 * (500) and {@code --concurrency C} (the service's default), its {@code max-poll-records} and
 * listener concurrency for the sink path; {@code --rounds R} (3) sink passes, each between two
 * COPYs; {@code --skip-sink}, {@code --skip-statements}.
 */
public final class SinkBenchmark {

  private static final String TABLE_COLUMNS =
      "tenant_id, source_id, connector, item_id, content_hash, request_id, url, title, body,"
          + " truncated, content_type, published_at, fetched_at, first_seen_at, last_seen_at,"
          + " signal_type, event_at, expires_at, retention_ms, metadata";

  private SinkBenchmark() {}

  public static void main(String[] args) throws Exception {
    int rows = 100_000;
    int body = 600;
    int sources = 1_000;
    int statementRows = 50_000;
    int batch = 500;
    boolean sink = true;
    boolean statements = true;
    int maxPoll = 500;
    Integer concurrency = null; // the service's default
    int rounds = 3;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--rows" -> rows = Integer.parseInt(args[++i].replace("_", ""));
        case "--body" -> body = Integer.parseInt(args[++i]);
        case "--sources" -> sources = Integer.parseInt(args[++i]);
        case "--statement-rows" -> statementRows = Integer.parseInt(args[++i].replace("_", ""));
        case "--batch" -> batch = Integer.parseInt(args[++i]);
        case "--max-poll" -> maxPoll = Integer.parseInt(args[++i]);
        case "--concurrency" -> concurrency = Integer.valueOf(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--skip-sink" -> sink = false;
        case "--skip-statements" -> statements = false;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }

    Infrastructure.start(EnumSet.of(Component.KAFKA, Component.POSTGRES, Component.REGISTRY));
    PostgresFixture pg = Infrastructure.postgres();
    String db = pg.createDatabase("sink_bench");
    var hikari = new HikariConfig();
    hikari.setJdbcUrl(pg.jdbcUrl(db));
    hikari.setUsername(pg.username());
    hikari.setPassword(pg.password());
    hikari.setSchema("content");
    hikari.setMaximumPoolSize(4);
    try (var ds = new HikariDataSource(hikari)) {
      Flyway.configure()
          .dataSource(ds)
          .schemas("content")
          .defaultSchema("content")
          .load()
          .migrate();
      System.out.printf(
          "%d cores, PostgreSQL %s, body %d chars, %d sources%n",
          Runtime.getRuntime().availableProcessors(),
          new JdbcTemplate(ds).queryForObject("SHOW server_version", String.class),
          body,
          sources);
      if (sink) {
        sinkVersusCopy(ds, pg, db, rows, body, sources, maxPoll, concurrency, rounds);
      }
      if (statements) {
        compareStatements(ds, statementRows, batch, body, sources);
      }
    }
    System.exit(0);
  }

  /** The same events, {@code n} distinct item versions. */
  private static List<ContentFetched> events(String prefix, int n, int body, int sources) {
    Instant t = Instant.parse("2026-11-01T00:00:00Z");
    String filler =
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(body / 57 + 1);
    List<ContentFetched> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      var e = ContentEvents.item(prefix + (i % sources), "item-" + i, 1, t.plusMillis(i));
      e.setBody(i + " " + filler.substring(0, body));
      // one fetch request per 20 items of a source, as a feed's fetch emits them
      e.setRequestId(e.getSourceId() + ":" + i / (sources * 20));
      out.add(e);
    }
    return out;
  }

  /**
   * COPY and the sink path in alternation, {@code rounds} times, each sink pass between two COPYs
   * (COPY, sink, COPY, sink, …, COPY): the machine is shared, so each sink pass is compared with
   * the COPYs just before and after it, and the median ratio is the figure.
   */
  private static void sinkVersusCopy(
      HikariDataSource ds,
      PostgresFixture pg,
      String db,
      int n,
      int body,
      int sources,
      int maxPoll,
      Integer concurrency,
      int rounds)
      throws Exception {
    var jdbc = new JdbcTemplate(ds);
    List<ContentFetched> events = events("bench-", n, body, sources);
    List<ContentVersion> versions =
        events.stream().map(e -> ContentVersion.of(e, Duration.ofDays(90))).toList();
    String csv = tableCsv(versions);

    // The events on the topic once (untimed); every sink pass reads them with a group of its own.
    var topics =
        FreshetTopics.create(RegistrySettings.of(Infrastructure.registry().apiUrl(), true), 12);
    Infrastructure.kafka().createTopic(FreshetTopics.CONTENT_FETCHED, 12, Map.of());
    Infrastructure.kafka().createTopic(FreshetTopics.FETCH_COMPLETED, 12, Map.of());
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
    long produceStart = System.nanoTime();
    try (var producer =
        new KafkaProducer<>(
            props,
            topics.contentFetched().keySerde().serializer(),
            topics.contentFetched().valueSerde().serializer())) {
      for (ContentFetched e : events) {
        producer.send(new ProducerRecord<>(FreshetTopics.CONTENT_FETCHED, e.getSourceId(), e));
      }
      producer.flush();
    }
    System.out.printf(
        "produced %d events in %.1f s (not part of either figure)%n",
        n, (System.nanoTime() - produceStart) / 1e9);

    truncate(jdbc);
    Cpu.locate(jdbc);
    Timed copyBefore = copyOnce(ds, jdbc, csv, n);
    List<Double> ratios = new ArrayList<>();
    List<Double> cpuRatios = new ArrayList<>();
    for (int round = 1; round <= rounds; round++) {
      SinkPass sink = sinkOnce(jdbc, pg, db, n, maxPoll, concurrency);
      if (round == 1) {
        System.out.printf(
            "sink path: max-poll-records %d, listener concurrency %d%n",
            maxPoll, sink.concurrency());
      }
      Timed copyAfter = copyOnce(ds, jdbc, csv, n);
      double copyRate = (copyBefore.rate() + copyAfter.rate()) / 2;
      double ratio = sink.timed().rate() / copyRate;
      double copyCpu = (copyBefore.cpuPerThousand() + copyAfter.cpuPerThousand()) / 2;
      ratios.add(ratio);
      cpuRatios.add(copyCpu / sink.timed().cpuPerThousand());
      System.out.printf(
          "round %d: raw COPY %,7.0f rows/s (%,.0f before, %,.0f after) | sink path %,7.0f rows/s"
              + " (%d rows in %.2f s from the first stored batch, %d batches of mean %.1f ms)"
              + " | ratio %.2f | load %s%n",
          round,
          copyRate,
          copyBefore.rate(),
          copyAfter.rate(),
          sink.timed().rate(),
          sink.timed().rows(),
          sink.timed().seconds(),
          sink.batches(),
          sink.meanBatchMillis(),
          ratio,
          loadAverage());
      System.out.printf(
          "         CPU ms per 1,000 rows: COPY %s then %s | sink path %s%n",
          copyBefore.cpuText(), copyAfter.cpuText(), sink.timed().cpuText());
      copyBefore = copyAfter;
    }
    System.out.printf(
        "ratio sink / COPY: %.2f median of %d rounds (min %.2f, max %.2f; goal >= 0.5)%n",
        median(ratios), rounds, min(ratios), max(ratios));
    System.out.printf(
        "CPU per row, COPY / sink path: %.2f median (min %.2f, max %.2f): the sink path's cost"
            + " whatever else runs on the machine%n",
        median(cpuRatios), min(cpuRatios), max(cpuRatios));
  }

  private static double median(List<Double> xs) {
    return xs.stream().sorted().toList().get(xs.size() / 2);
  }

  private static double min(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
  }

  private static double max(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
  }

  /** Raw COPY of the rows into the empty, indexed table, then emptied again. */
  private static Timed copyOnce(HikariDataSource ds, JdbcTemplate jdbc, String csv, int n)
      throws Exception {
    Timed timed;
    try (Connection conn = ds.getConnection()) {
      Cpu before = Cpu.now();
      long start = System.nanoTime();
      conn.unwrap(PGConnection.class)
          .getCopyAPI()
          .copyIn(
              "COPY platform_content (" + TABLE_COLUMNS + ") FROM STDIN (FORMAT csv)",
              new StringReader(csv));
      timed = new Timed(n, (System.nanoTime() - start) / 1e9, Cpu.now().minus(before));
    }
    check(jdbc, n);
    truncate(jdbc);
    return timed;
  }

  /** Rows stored in a time, and the CPU PostgreSQL and this JVM spent meanwhile. */
  private record Timed(long rows, double seconds, Cpu cpu) {
    double rate() {
      return rows / seconds;
    }

    /** CPU milliseconds per 1,000 rows, PostgreSQL and this JVM together. */
    double cpuPerThousand() {
      return (cpu.pgMillis() + cpu.jvmMillis()) * 1000.0 / rows;
    }

    String cpuText() {
      return String.format(
          "%.0f (pg %.0f + jvm %.0f)",
          cpuPerThousand(), cpu.pgMillis() * 1000.0 / rows, cpu.jvmMillis() * 1000.0 / rows);
    }
  }

  /**
   * CPU time used so far by every PostgreSQL process (the postmaster, its live children, and the
   * children it has reaped) and by this JVM (which hosts the broker and the service): a figure the
   * other work on a shared machine does not move the way it moves wall-clock rates. Linux only
   * ({@code /proc}); zero elsewhere.
   */
  record Cpu(long pgMillis, long jvmMillis) {
    private static final long MILLIS_PER_TICK = 10; // USER_HZ is 100 on Linux
    static int postmaster;

    static Cpu now() {
      long jvm =
          ((com.sun.management.OperatingSystemMXBean)
                      java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                  .getProcessCpuTime()
              / 1_000_000;
      return new Cpu(postmaster == 0 ? 0 : pgTicks() * MILLIS_PER_TICK, jvm);
    }

    Cpu minus(Cpu earlier) {
      return new Cpu(pgMillis - earlier.pgMillis, jvmMillis - earlier.jvmMillis);
    }

    private static long pgTicks() {
      long ticks = 0;
      try (var procs = java.nio.file.Files.list(java.nio.file.Path.of("/proc"))) {
        for (var dir : (Iterable<java.nio.file.Path>) procs::iterator) {
          String name = dir.getFileName().toString();
          if (!name.chars().allMatch(Character::isDigit)) {
            continue;
          }
          long[] stat = stat(dir.resolve("stat"));
          if (stat == null) {
            continue;
          }
          if (Integer.parseInt(name) == postmaster) {
            ticks += stat[1] + stat[2] + stat[3] + stat[4]; // own and reaped children's
          } else if (stat[0] == postmaster) {
            ticks += stat[1] + stat[2];
          }
        }
      } catch (java.io.IOException e) {
        return 0;
      }
      return ticks;
    }

    /** ppid, utime, stime, cutime, cstime of a /proc/[pid]/stat, or null if it is gone. */
    private static long[] stat(java.nio.file.Path file) {
      try {
        String text = java.nio.file.Files.readString(file);
        String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
        return new long[] {
          Long.parseLong(f[1]),
          Long.parseLong(f[11]),
          Long.parseLong(f[12]),
          Long.parseLong(f[13]),
          Long.parseLong(f[14])
        };
      } catch (java.io.IOException | RuntimeException e) {
        return null;
      }
    }

    /** Finds the postmaster: the parent of this connection's backend. */
    static void locate(JdbcTemplate jdbc) {
      Integer backend = jdbc.queryForObject("SELECT pg_backend_pid()", Integer.class);
      long[] stat =
          backend == null ? null : stat(java.nio.file.Path.of("/proc/" + backend + "/stat"));
      postmaster = stat == null ? 0 : (int) stat[0];
    }
  }

  /** One sink pass: rows stored after the first stored batch, how long, at what CPU. */
  private record SinkPass(Timed timed, long batches, double meanBatchMillis, int concurrency) {}

  /** The service started with a new consumer group; timed from its first stored batch. */
  private static SinkPass sinkOnce(
      JdbcTemplate jdbc, PostgresFixture pg, String db, int n, int maxPoll, Integer concurrency)
      throws Exception {
    Map<String, Object> app = new LinkedHashMap<>();
    app.put("server.port", "0");
    app.put("spring.datasource.url", pg.jdbcUrl(db));
    app.put("spring.datasource.username", pg.username());
    app.put("spring.datasource.password", pg.password());
    app.put("spring.kafka.bootstrap-servers", Infrastructure.kafka().bootstrapServers());
    app.put("spring.kafka.consumer.group-id", "bench-" + UUID.randomUUID());
    app.put("freshet.kafka.registry-url", Infrastructure.registry().apiUrl());
    app.put("freshet.kafka.create-topics", "false");
    app.put("spring.kafka.consumer.max-poll-records", Integer.toString(maxPoll));
    if (concurrency != null) {
      app.put("freshet.sink.listener-concurrency", concurrency.toString());
    }
    app.put("freshet.api.token", "bench");
    app.put("freshet.cleanup.enabled", "false");
    app.put("logging.level.root", "WARN");
    app.put("spring.main.banner-mode", "off");
    long firstRowAt = 0;
    long firstCount = 0;
    long lastCount = 0;
    Cpu cpuAtFirst = null;
    try (ConfigurableApplicationContext ctx =
        new SpringApplicationBuilder(ContentSinkApplication.class)
            .run(
                app.entrySet().stream()
                    .map(e -> "--" + e.getKey() + "=" + e.getValue())
                    .toArray(String[]::new))) {
      long deadline = System.nanoTime() + Duration.ofMinutes(30).toNanos();
      while (lastCount < n && System.nanoTime() < deadline) {
        Thread.sleep(100);
        lastCount = count(jdbc);
        if (firstRowAt == 0 && lastCount > 0) {
          firstRowAt = System.nanoTime();
          firstCount = lastCount;
          cpuAtFirst = Cpu.now();
        }
      }
      long doneAt = System.nanoTime();
      Cpu cpu = Cpu.now().minus(cpuAtFirst);
      check(jdbc, n);
      var latency =
          ctx.getBean(io.micrometer.core.instrument.MeterRegistry.class)
              .get("freshet.sink.batch.latency")
              .timer();
      var pass =
          new SinkPass(
              new Timed(n - firstCount, (doneAt - firstRowAt) / 1e9, cpu),
              latency.count(),
              latency.mean(java.util.concurrent.TimeUnit.MILLISECONDS),
              ctx.getBean(SinkProperties.class).sink().listenerConcurrency());
      ctx.close();
      truncate(jdbc);
      return pass;
    }
  }

  private static void compareStatements(
      HikariDataSource ds, int n, int batch, int body, int sources) throws SQLException {
    var jdbc = new JdbcTemplate(ds);
    var upserter = new ContentUpserter(jdbc, JsonMapper.builder().build(), KeepAlive.DEFAULT);
    List<ContentVersion> versions =
        events("stmt-", n, body, sources).stream()
            .map(e -> ContentVersion.of(e, Duration.ofDays(90)))
            .toList();
    List<UpsertPlan> plans = new ArrayList<>();
    for (int i = 0; i < versions.size(); i += batch) {
      plans.add(UpsertPlan.of(versions.subList(i, Math.min(versions.size(), i + batch))));
    }
    System.out.printf(
        "%nupsert statement, %d rows in batches of %d (one transaction per batch)%n", n, batch);
    System.out.printf("%-28s %14s %18s%n", "strategy", "new rows/s", "redelivered rows/s");
    Map<String, Strategy> strategies = new LinkedHashMap<>();
    strategies.put("unnest arrays (chosen)", (conn, plan) -> upserter.upsert(plan));
    strategies.put("multi-row VALUES", (conn, plan) -> values(conn, upserter, plan));
    strategies.put("COPY staging + merge", (conn, plan) -> copyMerge(conn, upserter, plan));
    // A warm-up pass of each, then the measured passes.
    for (boolean measured : new boolean[] {false, true}) {
      for (var s : strategies.entrySet()) {
        truncate(jdbc);
        double fresh = pass(ds, plans, s.getValue());
        double again = pass(ds, plans, s.getValue());
        check(jdbc, n);
        if (measured) {
          System.out.printf("%-28s %,14.0f %,18.0f%n", s.getKey(), n / fresh, n / again);
        }
      }
    }
  }

  @FunctionalInterface
  private interface Strategy {
    void upsert(Connection conn, UpsertPlan plan) throws SQLException;
  }

  /** Seconds for every plan, each in its own transaction. */
  private static double pass(DataSource ds, List<UpsertPlan> plans, Strategy strategy)
      throws SQLException {
    long start = System.nanoTime();
    for (UpsertPlan plan : plans) {
      try (Connection conn = ds.getConnection()) {
        strategy.upsert(conn, plan);
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static final Map<Integer, String> VALUES_SQL = new HashMap<>();

  // The same statement as the sink's, its input a VALUES list bound row by row.
  private static void values(Connection conn, ContentUpserter upserter, UpsertPlan plan)
      throws SQLException {
    List<Object[]> rows = upserter.rowValues(plan);
    String sql =
        VALUES_SQL.computeIfAbsent(
            rows.size(),
            size -> {
              var row = new StringBuilder("(");
              for (String type : ContentUpserter.INPUT_TYPES) {
                row.append("?::").append(type).append(", ");
              }
              var values = new StringBuilder();
              for (int r = 0; r < size; r++) {
                values.append(r == 0 ? "" : ", ").append(row).append(r + 1).append("::int8)");
              }
              return "WITH input AS MATERIALIZED (SELECT *, "
                  + ContentUpserter.DRAW_ID
                  + " FROM (VALUES "
                  + values
                  + ") AS i("
                  + ContentUpserter.INPUT_COLUMNS
                  + ", ord)), "
                  + ContentUpserter.storeFromInput(KeepAlive.DEFAULT.cap().toMillis());
            });
    try (PreparedStatement st = conn.prepareStatement(sql)) {
      int p = 1;
      for (Object[] row : rows) {
        for (Object v : row) {
          st.setObject(p++, v);
        }
      }
      ContentUpserter.bindRepeats(st, p, plan);
      ContentUpserter.execute(st, plan);
    }
  }

  // COPY the batch into a session's temporary staging table, then the same statement over it.
  private static void copyMerge(Connection conn, ContentUpserter upserter, UpsertPlan plan)
      throws SQLException {
    conn.setAutoCommit(false);
    try (var st = conn.createStatement()) {
      st.execute(
          """
          CREATE TEMP TABLE IF NOT EXISTS upsert_staging (
            tenant_id text, source_id text, connector text, item_id text, content_hash text,
            request_id text, url text, title text, body text, truncated bool, content_type text,
            published_ms int8, fetched_ms int8, last_seen_ms int8, signal_type text,
            event_ms int8, expires_ms int8, metadata text, prev_ord int4, ord int8
          ) ON COMMIT DELETE ROWS
          """);
    }
    var csv = new StringBuilder();
    List<Object[]> rows = upserter.rowValues(plan);
    for (int r = 0; r < rows.size(); r++) {
      for (Object v : rows.get(r)) {
        appendCsv(csv, v);
        csv.append(',');
      }
      csv.append(r + 1).append('\n');
    }
    try {
      conn.unwrap(PGConnection.class)
          .getCopyAPI()
          .copyIn("COPY upsert_staging FROM STDIN (FORMAT csv)", new StringReader(csv.toString()));
    } catch (java.io.IOException e) {
      throw new SQLException(e);
    }
    try (var st =
        conn.prepareStatement(
            "WITH input AS MATERIALIZED (SELECT *, "
                + ContentUpserter.DRAW_ID
                + " FROM upsert_staging), "
                + ContentUpserter.storeFromInput(KeepAlive.DEFAULT.cap().toMillis()))) {
      ContentUpserter.bindRepeats(st, 1, plan);
      ContentUpserter.execute(st, plan);
    }
    conn.commit();
    conn.setAutoCommit(true);
  }

  private static String tableCsv(List<ContentVersion> versions) {
    var csv = new StringBuilder(versions.size() * 900);
    for (ContentVersion v : versions) {
      Object[] row = {
        v.tenantId(),
        v.sourceId(),
        v.connector(),
        v.itemId(),
        v.contentHash(),
        v.requestId(),
        v.url(),
        v.title(),
        v.body(),
        v.truncated(),
        v.contentType(),
        v.publishedAt(),
        v.fetchedAt(),
        v.fetchedAt(),
        v.fetchedAt(),
        v.signalType(),
        v.eventAt(),
        v.expiresAt(),
        Duration.between(v.fetchedAt(), v.expiresAt()).toMillis(),
        "{}"
      };
      for (int i = 0; i < row.length; i++) {
        if (i > 0) {
          csv.append(',');
        }
        appendCsv(csv, row[i]);
      }
      csv.append('\n');
    }
    return csv.toString();
  }

  private static void appendCsv(StringBuilder csv, Object v) {
    if (v == null) {
      return; // unquoted empty: NULL
    }
    if (v instanceof String s) {
      csv.append('"').append(s.replace("\"", "\"\"")).append('"');
    } else {
      csv.append(v);
    }
  }

  /** The machine's 1-minute load average: other work sharing the cores moves every figure. */
  private static String loadAverage() {
    return String.format(
        "%.1f",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  private static void truncate(JdbcTemplate jdbc) {
    jdbc.execute(
        "TRUNCATE platform_content, content_retention, content_arrival, activity_log CASCADE");
  }

  private static long count(JdbcTemplate jdbc) {
    Long c = jdbc.queryForObject("SELECT count(*) FROM platform_content", Long.class);
    return c == null ? 0 : c;
  }

  private static void check(JdbcTemplate jdbc, int expected) {
    long c = count(jdbc);
    if (c != expected) {
      throw new IllegalStateException("expected " + expected + " rows, found " + c);
    }
  }
}
