package io.freshet.scheduler.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.scheduler.claims.ClaimRound;
import io.freshet.scheduler.claims.FetchRequestPublisher;
import io.freshet.scheduler.schedule.BudgetPlanner;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.testing.Settings;
import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.PostgresFixture;
import io.freshet.testsupport.RealInfrastructure.Component;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims + emits per second with 10,000 and then 1,000,000 sources in the table, about 1 % of them
 * due, against the real PostgreSQL, Kafka broker and registry of test-support, with the production
 * claim path ({@link ClaimRound}: one SQL claim, Avro serialisation, idempotent acks=all producer,
 * commit after the acks). Each size has its own database, filled once; the rounds alternate between
 * the sizes. Prints each row with the load average and the CPU per claim ({@link Cpu}), then the
 * best and median rates and their ratios. Not a test: run it with {@code
 * scheduler-producer/bench/claim-benchmark.sh}.
 *
 * <p>Arguments (optional): table sizes, e.g. {@code 10000 10000000}; {@code --batch N} (500);
 * {@code --due-fraction F} (0.01) or {@code --due-count N}; {@code --rounds R} rounds per size (3);
 * {@code --work W} claims per row (20,000); {@code --threads T} (2); {@code --explain}. {@code
 * --backlog [size]}: a restart's backlog instead ({@link Backlog}), with {@code --max-in-flight N}
 * (20,000; 0 lifts it), {@code --answer}/{@code --no-answer}, {@code --cadence-minutes}, {@code
 * --down-minutes}, {@code --max-seconds}.
 */
public final class ClaimBenchmark {

  public static void main(String[] args) throws Exception {
    int batch = 500;
    double dueFraction = 0.01;
    int rounds = 3;
    int work = 20_000;
    int threads = 2; // the service default (freshet.scheduler.claim-threads)
    int dueCount = 0;
    boolean explain = false;
    boolean backlog = false;
    int maxInFlight = 20_000; // the service default (freshet.scheduler.max-in-flight)
    Boolean answer = null;
    int cadenceMinutes = 60;
    int downMinutes = 60;
    int maxSeconds = 0;
    var sizes = new java.util.ArrayList<Integer>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--batch" -> batch = Integer.parseInt(args[++i]);
        case "--due-fraction" -> dueFraction = Double.parseDouble(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        case "--work" -> work = Integer.parseInt(args[++i]);
        case "--threads" -> threads = Integer.parseInt(args[++i]);
        case "--due-count" -> dueCount = Integer.parseInt(args[++i]);
        case "--explain" -> explain = true;
        case "--backlog" -> backlog = true;
        case "--max-in-flight" -> maxInFlight = Integer.parseInt(args[++i]);
        case "--answer" -> answer = true;
        case "--no-answer" -> answer = false;
        case "--cadence-minutes" -> cadenceMinutes = Integer.parseInt(args[++i]);
        case "--down-minutes" -> downMinutes = Integer.parseInt(args[++i]);
        case "--max-seconds" -> maxSeconds = Integer.parseInt(args[++i]);
        default -> sizes.add(Integer.parseInt(args[i].replace("_", "")));
      }
    }
    if (sizes.isEmpty()) {
      sizes.addAll(backlog ? java.util.List.of(10_000_000) : java.util.List.of(10_000, 1_000_000));
    }
    if (maxInFlight <= 0) {
      maxInFlight = Integer.MAX_VALUE; // lifted
    }

    Infrastructure.start(EnumSet.of(Component.KAFKA, Component.POSTGRES, Component.REGISTRY));
    var topics =
        FreshetTopics.create(RegistrySettings.of(Infrastructure.registry().apiUrl(), true), 12);
    Infrastructure.kafka().createTopic(topics.fetchRequested().name(), 12, Map.of());
    Map<String, Object> producer = new LinkedHashMap<>();
    producer.put(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    producer.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producer.put(ProducerConfig.ACKS_CONFIG, "all");
    producer.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    producer.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    var template =
        new KafkaTemplate<>(
            new DefaultKafkaProducerFactory<>(
                producer, new StringSerializer(), new ByteArraySerializer()));
    var props =
        Settings.defaults()
            .batchSize(batch)
            .maxInFlight(backlog ? maxInFlight : Integer.MAX_VALUE)
            .sendTimeout(Duration.ofSeconds(30))
            .build();
    var meters = new SimpleMeterRegistry();
    var publisher = new FetchRequestPublisher(template, topics, 1_048_576);
    // One database per table size, each filled once; the rounds then alternate between the sizes,
    // so that a busy minute on the shared machine does not fall on one size only.
    Map<Integer, Bench> benches = new LinkedHashMap<>();
    for (int size : sizes) {
      benches.put(size, Bench.open("claim_bench_" + size, publisher, props, meters));
    }
    Bench first = benches.values().iterator().next();

    // warm-up: JIT, registry look-up, producer metadata
    fill(first.ds(), first.jdbc(), 5_000, 0.2);
    drain(first.round());
    System.out.print("warm-up");
    printPhases(meters);

    if (backlog) {
      new Backlog(
              first.ds(),
              first.jdbc(),
              first.tx(),
              first.round(),
              meters,
              sizes.getFirst(),
              cadenceMinutes,
              downMinutes,
              threads,
              batch,
              maxInFlight,
              answer != null ? answer : maxInFlight != Integer.MAX_VALUE,
              maxSeconds)
          .run();
      template.destroy();
      System.exit(0);
    }

    Map<Integer, Integer> dues = new LinkedHashMap<>();
    for (var e : benches.entrySet()) {
      int size = e.getKey();
      dues.put(
          size,
          fill(
              e.getValue().ds(),
              e.getValue().jdbc(),
              size,
              dueCount > 0 ? (double) dueCount / size : dueFraction));
    }
    Map<Integer, List<Double>> rates = new LinkedHashMap<>();
    System.out.printf(
        "batch %d, %d claim thread(s), %s due, %d claims measured per row, sizes alternating%n",
        batch, threads, dueCount > 0 ? dueCount + " sources" : dueFraction * 100 + " %", work);
    System.out.printf(
        "%-10s %-8s %-10s %-10s %-10s %s%n",
        "sources", "due", "claimed", "seconds", "claims/s", "load (1/5/15 min)");
    for (int r = 0; r < rounds; r++) {
      for (var e : benches.entrySet()) {
        int size = e.getKey();
        Bench bench = e.getValue();
        if (explain && r == 0) {
          explain(bench.jdbc(), bench.tx(), batch);
        }
        // Sustained rate: claim the due set, make the same sources due again (not timed), and
        // repeat until at least `work` claims were made, so that small and large tables are
        // measured over the same amount of work.
        int claimed = 0;
        long nanos = 0;
        Cpu cpu0 = Cpu.now();
        while (claimed < work) {
          long t0 = System.nanoTime();
          claimed += drain(bench.round(), threads);
          nanos += System.nanoTime() - t0;
          makeDueAgain(bench.jdbc());
        }
        double seconds = nanos / 1e9;
        printPhases(meters);
        double rate = claimed / seconds;
        rates.computeIfAbsent(size, k -> new java.util.ArrayList<>()).add(rate);
        System.out.printf(
            "%-10d %-8d %-10d %-10.3f %-10.0f %s%n",
            size, dues.get(size), claimed, seconds, rate, load());
        System.out.println("  " + Cpu.now().since(cpu0).perClaim(claimed));
      }
    }
    if (rates.size() >= 2) {
      var best = new LinkedHashMap<Integer, Long>();
      var median = new LinkedHashMap<Integer, Long>();
      rates.forEach(
          (size, list) -> {
            var sorted = list.stream().sorted().toList();
            best.put(size, Math.round(sorted.getLast()));
            median.put(size, Math.round(sorted.get(sorted.size() / 2)));
          });
      var b = best.values().stream().toList();
      var m = median.values().stream().toList();
      System.out.printf(
          "best claims/s: %s; ratio largest/smallest table = %.2f%n",
          best, (double) b.getLast() / b.getFirst());
      System.out.printf(
          "median claims/s: %s; ratio largest/smallest table = %.2f%n",
          median, (double) m.getLast() / m.getFirst());
    }
    template.destroy();
    System.exit(0);
  }

  /**
   * Empties the table and inserts {@code size} sources, {@code dueFraction} of them due now (the
   * first {@code due} of the series), the others due within the next day.
   */
  private static int fill(DataSource ds, JdbcClient jdbc, int size, double dueFraction)
      throws SQLException {
    int due = (int) Math.round(size * dueFraction);
    bulkFill(
        ds,
        jdbc,
        size,
        """
        CASE WHEN g <= %d THEN now() - (g %% 3600) * interval '1 second'
             ELSE now() + interval '1 hour' + (g %% 86400) * interval '1 second' END
        """
            .formatted(due),
        60);
    return due;
  }

  /**
   * Empties the table and inserts {@code size} sources whose cadence is an interval of {@code
   * cadenceMinutes} and whose {@code next_due_at} is the SQL expression {@code nextDue} of the
   * series number {@code g}. The secondary indexes are dropped for the insert and built again after
   * it (their definitions are read from the catalogue, so they stay the migrations'), in slices of
   * a million rows, then the table is vacuumed and analysed.
   */
  static void bulkFill(DataSource ds, JdbcClient jdbc, int size, String nextDue, int cadenceMinutes)
      throws SQLException {
    long t0 = System.nanoTime();
    jdbc.sql("TRUNCATE scheduler.sources, scheduler.tenants CASCADE").update();
    jdbc.sql("INSERT INTO scheduler.tenants (id, tier) VALUES ('bench', 'pro')").update();
    boolean large = size >= 1_000_000;
    List<String[]> indexes =
        jdbc.sql(
                """
                SELECT i.indexname, i.indexdef FROM pg_indexes i
                WHERE i.schemaname = 'scheduler' AND i.tablename = 'sources'
                  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
                """)
            .query((rs, n) -> new String[] {rs.getString(1), rs.getString(2)})
            .list();
    try (Connection c = ds.getConnection();
        Statement st = c.createStatement()) {
      st.execute("SET maintenance_work_mem = '512MB'");
      if (large) {
        for (String[] index : indexes) {
          st.execute("DROP INDEX scheduler." + index[0]);
        }
      }
      int slice = 1_000_000;
      for (int from = 1; from <= size; from += slice) {
        int to = Math.min(size, from + slice - 1);
        st.execute(
            """
            INSERT INTO scheduler.sources (id, tenant_id, name, connector, url, host, config_json,
              next_due_at, priority)
            SELECT gen_random_uuid(), 'bench', 'source ' || g, 'feed',
              'https://host' || (g %% 5000) || '.example.org/feed/' || g || '.xml',
              'host' || (g %% 5000) || '.example.org',
              '{"cadence":{"mode":"interval","every_minutes":%d},"item_limit":50}'::jsonb,
              %s,
              (g %% 3)
            FROM generate_series(%d, %d) AS g
            """
                .formatted(cadenceMinutes, nextDue, from, to));
        if (large) {
          System.out.printf(
              "  filled %,d of %,d (%.0f s)%n", to, size, (System.nanoTime() - t0) / 1e9);
        }
      }
      if (large) {
        for (String[] index : indexes) {
          st.execute(index[1]);
        }
        System.out.printf(
            "  %d indexes built (%.0f s)%n", indexes.size(), (System.nanoTime() - t0) / 1e9);
      }
      st.execute("VACUUM ANALYZE scheduler.sources");
    }
    if (large) {
      System.out.printf(
          "  filled %,d sources in %.0f s (load %s)%n",
          size, (System.nanoTime() - t0) / 1e9, load());
    }
  }

  /** The machine's load averages, from /proc/loadavg. */
  static String load() {
    try {
      String[] f =
          java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException e) {
      return "?";
    }
  }

  /** Where the time went: total seconds per claim phase since the last call. */
  private static void printPhases(SimpleMeterRegistry meters) {
    var phases = new StringBuilder("  seconds per phase:");
    for (var timer : meters.find("freshet.scheduler.claim.phase").timers()) {
      String phase = timer.getId().getTag("phase");
      double total = timer.totalTime(java.util.concurrent.TimeUnit.SECONDS);
      phases.append(
          String.format(" %s %.3f", phase, total - PHASE_TOTALS.getOrDefault(phase, 0.0)));
      PHASE_TOTALS.put(phase, total);
    }
    System.out.println(phases);
  }

  private static final Map<String, Double> PHASE_TOTALS = new java.util.HashMap<>();

  /** The claim statement's plan and timing on the current table, rolled back. */
  static void explain(JdbcClient jdbc, TransactionTemplate tx, int batch) {
    tx.executeWithoutResult(
        status -> {
          jdbc.sql("EXPLAIN (ANALYZE, BUFFERS) " + ScheduleRepository.claimDueSql())
              .param("now", java.sql.Timestamp.from(java.time.Instant.now()))
              .param("limit", batch)
              .param("leaseEnd", java.sql.Timestamp.from(java.time.Instant.now().plusSeconds(300)))
              .query(String.class)
              .list()
              .forEach(line -> System.out.println("  | " + line));
          status.setRollbackOnly();
        });
  }

  /** The sources claimed in the last drain become due again, as if their leases had expired. */
  private static void makeDueAgain(JdbcClient jdbc) {
    jdbc.sql(
            "UPDATE scheduler.sources SET lease_until = NULL, next_due_at = now() - interval '1 minute'"
                + " WHERE lease_until IS NOT NULL")
        .update();
  }

  static int drain(ClaimRound round) {
    int total = 0;
    for (int n; (n = Cpu.claim(round::claimDue)) > 0; ) {
      total += n;
    }
    return total;
  }

  /** {@code threads} claim loops at once, as several scheduler instances would run. */
  private static int drain(ClaimRound round, int threads) throws Exception {
    if (threads == 1) {
      return drain(round);
    }
    try (var pool = java.util.concurrent.Executors.newFixedThreadPool(threads)) {
      var tasks = new java.util.ArrayList<java.util.concurrent.Callable<Integer>>();
      for (int t = 0; t < threads; t++) {
        tasks.add(() -> drain(round));
      }
      int total = 0;
      for (var f : pool.invokeAll(tasks)) {
        total += f.get();
      }
      return total;
    }
  }

  /** One database with the scheduler's schema, and a production claim round on it. */
  record Bench(HikariDataSource ds, JdbcClient jdbc, TransactionTemplate tx, ClaimRound round) {

    static Bench open(
        String name,
        FetchRequestPublisher publisher,
        io.freshet.scheduler.config.SchedulerProperties props,
        SimpleMeterRegistry meters) {
      PostgresFixture pg = Infrastructure.postgres();
      String db = pg.createDatabase(name);
      var hikari = new HikariConfig();
      hikari.setJdbcUrl(pg.jdbcUrl(db));
      hikari.setUsername(pg.username());
      hikari.setPassword(pg.password());
      hikari.setMaximumPoolSize(8);
      var ds = new HikariDataSource(hikari);
      Flyway.configure()
          .dataSource(ds)
          .schemas("scheduler")
          .defaultSchema("scheduler")
          .load()
          .migrate();
      var jdbc = JdbcClient.create(ds);
      var tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
      var engine = new CadenceEngine(CadenceDefaults.standard(), Clock.systemUTC());
      var round =
          new ClaimRound(
              new ScheduleRepository(jdbc),
              new NextDue(
                  engine,
                  new BudgetPlanner(jdbc, engine, props, Clock.systemUTC()),
                  io.freshet.scheduler.schedule.CadenceTimeScale.identity()),
              publisher,
              jdbc,
              tx,
              props,
              Clock.systemUTC(),
              meters);
      return new Bench(ds, jdbc, tx, round);
    }
  }

  private ClaimBenchmark() {}
}
