package io.freshet.scheduler.outcomes;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.BudgetPlanner;
import io.freshet.scheduler.schedule.CadenceTimeScale;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.PushRules;
import io.freshet.scheduler.schedule.ScheduleBatches;
import io.freshet.scheduler.testing.Settings;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.PostgresFixture;
import io.freshet.testsupport.RealInfrastructure.Component;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Outcomes and stats applied per second, and the CPU each costs, through the scheduler's own
 * inbound path ({@link OutcomeApplier}, {@link StatsApplier}, what the listeners call after
 * decoding) against the real PostgreSQL of test-support. Not a test: it measures and prints, it
 * does not pass or fail. Run it with {@code scheduler-producer/bench/outcome-benchmark.sh}.
 *
 * <p>Each round claims every source (untimed), then applies one {@code FetchCompleted} per source
 * in polls of {@code --batch} records (70 % ok with a new ETag, 20 % not modified, 10 % failed),
 * then the same polls again (a redelivery: every outcome stale), then one {@code SourceStats} per
 * source. CPU is the benchmark JVM's (the applying thread and the whole process) and the PostgreSQL
 * backend's of its one connection ({@code /proc/<pid>/stat}).
 *
 * <p>Arguments (optional): {@code --sources N} (5000), {@code --batch B} (500, the service's {@code
 * max-poll-records}), {@code --rounds R} (6; the first is a warm-up).
 */
public final class OutcomeBenchmark {

  private static final String CONFIG =
      "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60},\"item_limit\":50}";

  /** What the listeners do with one decoded poll. */
  interface Inbound {
    void outcomes(List<FetchCompleted> poll);

    void stats(List<SourceStats> poll);
  }

  public static void main(String[] args) throws Exception {
    int sources = 5_000;
    int batch = 500;
    int rounds = 6;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--sources" -> sources = Integer.parseInt(args[++i].replace("_", ""));
        case "--batch" -> batch = Integer.parseInt(args[++i]);
        case "--rounds" -> rounds = Integer.parseInt(args[++i]);
        default -> throw new IllegalArgumentException("unknown argument " + args[i]);
      }
    }
    Infrastructure.start(EnumSet.of(Component.POSTGRES));
    PostgresFixture pg = Infrastructure.postgres();
    String db = pg.createDatabase("outcome_bench");
    Flyway.configure()
        .dataSource(pg.dataSource(db))
        .schemas("scheduler")
        .defaultSchema("scheduler")
        .load()
        .migrate();
    var hikari = new HikariConfig();
    hikari.setJdbcUrl(pg.jdbcUrl(db));
    hikari.setUsername(pg.username());
    hikari.setPassword(pg.password());
    hikari.setMaximumPoolSize(1); // one backend, whose CPU is read from /proc
    try (var ds = new HikariDataSource(hikari)) {
      var jdbc = JdbcClient.create(ds);
      var tx = new TransactionTemplate(new DataSourceTransactionManager(ds));
      Clock clock = Clock.systemUTC();
      SchedulerProperties props = Settings.defaults().build();
      var engine = new CadenceEngine(CadenceDefaults.standard(), clock);
      var time = CadenceTimeScale.identity();
      var nextDue = new NextDue(engine, new BudgetPlanner(jdbc, engine, props, clock), time);
      MeterRegistry meters = new SimpleMeterRegistry();
      Inbound inbound =
          Wiring.inbound(
              jdbc,
              ds,
              tx,
              clock,
              props,
              nextDue,
              new PushRules(Duration.ofHours(24), time),
              meters);
      long backend = jdbc.sql("SELECT pg_backend_pid()").query(Long.class).single();

      List<UUID> ids = fill(jdbc, sources);
      System.out.printf(
          "%d sources, polls of %d records, %d rounds (round 0 warms up)%n",
          sources, batch, rounds);
      System.out.printf(
          "%-5s %-22s %8s %9s %10s %12s %12s %12s%n",
          "round",
          "phase",
          "records",
          "seconds",
          "records/s",
          "thread ms/r",
          "jvm ms/r",
          "postgres ms/r");
      Instant statsAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
      for (int round = 0; round < rounds; round++) {
        long epoch = claimAll(jdbc);
        List<FetchCompleted> outcomes = outcomes(ids, epoch, round);
        var polls = polls(outcomes, batch);
        measure(
            round,
            "outcomes applied",
            outcomes.size(),
            backend,
            () -> polls.forEach(inbound::outcomes));
        measure(
            round,
            "outcomes redelivered",
            outcomes.size(),
            backend,
            () -> polls.forEach(inbound::outcomes));
        Instant at = statsAt.plusSeconds(round + 1);
        var stats = polls(ids.stream().map(id -> stats(id, at)).toList(), batch);
        measure(round, "stats applied", ids.size(), backend, () -> stats.forEach(inbound::stats));
      }
      FIGURES.forEach(
          (phase, rows) ->
              System.out.printf(
                  "median %-22s %8s %9s %10.0f %12.4f %12.4f %12.4f%n",
                  phase,
                  "",
                  "",
                  median(rows, 0),
                  median(rows, 1),
                  median(rows, 2),
                  median(rows, 3)));
    }
    System.exit(0);
  }

  /** Per phase, the figures of each round after the warm-up: records/s, then ms per record. */
  private static final Map<String, List<double[]>> FIGURES = new java.util.LinkedHashMap<>();

  private static void measure(int round, String phase, int records, long backend, Runnable work) {
    var threads = ManagementFactory.getThreadMXBean();
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long thread0 = threads.getCurrentThreadCpuTime();
    long jvm0 = os.getProcessCpuTime();
    long pg0 = ticks(backend);
    long t0 = System.nanoTime();
    work.run();
    long nanos = System.nanoTime() - t0;
    double thread = (threads.getCurrentThreadCpuTime() - thread0) / 1e6;
    double jvm = (os.getProcessCpuTime() - jvm0) / 1e6;
    double pg = (ticks(backend) - pg0) * 10.0; // USER_HZ = 100
    if (round > 0) {
      FIGURES
          .computeIfAbsent(phase, k -> new ArrayList<>())
          .add(
              new double[] {
                records / (nanos / 1e9), thread / records, jvm / records, pg / records
              });
    }
    System.out.printf(
        "%-5d %-22s %8d %9.3f %10.0f %12.4f %12.4f %12.4f%n",
        round,
        phase,
        records,
        nanos / 1e9,
        records / (nanos / 1e9),
        thread / records,
        jvm / records,
        pg / records);
  }

  private static double median(List<double[]> rows, int column) {
    double[] values = rows.stream().mapToDouble(r -> r[column]).sorted().toArray();
    int n = values.length;
    return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  }

  /** utime + stime of a process, in clock ticks. */
  private static long ticks(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    } catch (java.io.IOException e) {
      return 0;
    }
  }

  private static List<UUID> fill(JdbcClient jdbc, int size) {
    jdbc.sql("INSERT INTO scheduler.tenants (id, tier) VALUES ('bench', 'pro')").update();
    List<UUID> ids =
        jdbc.sql(
                """
                INSERT INTO scheduler.sources (id, tenant_id, name, connector, url, host,
                  config_json, cursor_json, next_due_at, priority)
                SELECT gen_random_uuid(), 'bench', 'source ' || g, 'feed',
                  'https://host' || (g % 500) || '.example.org/feed/' || g || '.xml',
                  'host' || (g % 500) || '.example.org', CAST(:config AS jsonb),
                  '{"etag":"\\"old\\"","last_fetch_at":"2026-11-20T10:00:00Z"}'::jsonb,
                  now() + interval '1 hour', 0
                FROM generate_series(1, :size) AS g
                RETURNING id
                """)
            .param("config", CONFIG)
            .param("size", size)
            .query(UUID.class)
            .list();
    jdbc.sql("VACUUM ANALYZE scheduler.sources").update();
    return new ArrayList<>(ids);
  }

  /** Claims every source (one new epoch for all); returns the epoch. */
  private static long claimAll(JdbcClient jdbc) {
    jdbc.sql(
            "UPDATE scheduler.sources SET epoch = epoch + 1, lease_until = now() + interval '10"
                + " minutes', next_due_at = now() + interval '10 minutes'")
        .update();
    return jdbc.sql("SELECT max(epoch) FROM scheduler.sources").query(Long.class).single();
  }

  private static List<FetchCompleted> outcomes(List<UUID> ids, long epoch, int round) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<FetchCompleted> out = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      FetchStatus status =
          i % 10 < 7 ? FetchStatus.ok : i % 10 < 9 ? FetchStatus.not_modified : FetchStatus.failed;
      var event =
          FetchCompleted.newBuilder()
              .setRequestId(UUID.randomUUID().toString())
              .setSourceId(ids.get(i).toString())
              .setEpoch(epoch)
              .setStatus(status)
              .setHttpStatus(
                  status == FetchStatus.not_modified ? 304 : status == FetchStatus.ok ? 200 : 503)
              .setStartedAt(now.minusMillis(300))
              .setFinishedAt(now)
              .setCursor(
                  status == FetchStatus.ok ? Map.of("etag", "\"r" + round + "-" + i + "\"") : null);
      if (status == FetchStatus.failed) {
        event.setErrorKind("http_5xx").setErrorMessage("503 Service Unavailable");
      }
      out.add(event.build());
    }
    return out;
  }

  private static SourceStats stats(UUID id, Instant updatedAt) {
    return SourceStats.newBuilder()
        .setSourceId(id.toString())
        .setWindowFetches(10)
        .setAvgSignalYield(1.5)
        .setDominantSignalType(SignalType.informative)
        .setTypeCounts(Map.of("informative", 12L))
        .setRecentPublishedAt(List.of(updatedAt.minusSeconds(600), updatedAt.minusSeconds(1800)))
        .setPublishIntervalAvg(20 * 60_000L)
        .setChangeRate(2.0)
        .setUpdatedAt(updatedAt)
        .build();
  }

  private static <T> List<List<T>> polls(List<T> records, int batch) {
    List<List<T>> polls = new ArrayList<>();
    for (int i = 0; i < records.size(); i += batch) {
      polls.add(records.subList(i, Math.min(records.size(), i + batch)));
    }
    return polls;
  }

  /** The inbound path as the service wires it, without Spring and Kafka. */
  static final class Wiring {

    private Wiring() {}

    static Inbound inbound(
        JdbcClient jdbc,
        javax.sql.DataSource ds,
        TransactionTemplate tx,
        Clock clock,
        SchedulerProperties props,
        NextDue nextDue,
        PushRules push,
        MeterRegistry meters) {
      var schedule = new ScheduleBatches(new JdbcTemplate(ds));
      var outcomes = new OutcomeApplier(schedule, nextDue, tx, clock, props, push, meters);
      var stats = new StatsApplier(schedule, tx, nextDue, clock);
      return new Inbound() {
        @Override
        public void outcomes(List<FetchCompleted> poll) {
          // FetchCompletedListener, after decoding: the poll in one transaction, then its counters
          var verdicts = outcomes.applyAll(poll);
          for (int i = 0; i < poll.size(); i++) {
            meters
                .counter(
                    "freshet.scheduler.outcomes",
                    "status",
                    poll.get(i).getStatus().name(),
                    "result",
                    verdicts.get(i).result().name().toLowerCase(java.util.Locale.ROOT))
                .increment();
          }
        }

        @Override
        public void stats(List<SourceStats> poll) {
          stats.applyAll(poll); // SourceStatsListener, after decoding
        }
      };
    }
  }
}
