package io.freshet.stack.bench;

import io.freshet.stack.PlainAvroDecoder;
import io.freshet.stack.demoweb.Catalog;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.node.ObjectNode;

/**
 * The whole local pipeline at a sustained offered load, beside a bare GET + parse loop over the
 * same demo web, each for windows of minutes, alternating in one run. A program, not a test: {@code
 * local-stack/bench/steady-benchmark.sh [options]} (usage in the script).
 *
 * <p>Per regime, a stack of its own ({@link BenchStack}, the launcher's defaults): every demo
 * source imported with an {@code interval} cadence of one model hour and the scheduler's cadence
 * clock scaled so that an hour is {@code --every} wall seconds, hints ignored — the scheduler's own
 * claim loop keeps every source coming due again {@code --every} s after its last outcome, so the
 * pipeline is saturated (or runs at sources / every, whichever is lower). The regime is the demo
 * web's pace: {@code unchanged} (trace time at wall speed: nearly every fetch a 304) and {@code
 * new} (every source publishing an item every {@code --publish-every} s, {@link BusyCatalog}:
 * fetches carry several new items). After a warm-up of each side, pipeline window and bare window
 * alternate {@code --alternate} times; the bare loop runs in a JVM of its own ({@link
 * BareLoopProcess}). The pipeline pauses for a bare window (every source disabled in one statement,
 * the in-flight fetches answered), then resumes (enabled, due now) and settles before its next
 * window. fetches/s of the pipeline = outcomes applied by the scheduler ({@code
 * freshet_scheduler_outcomes_total{result="applied"}}) per second of the window.
 */
public final class SteadyBenchmark {

  /**
   * The per-stage lags come from one partition in this many of each topic (a quarter of the
   * sources): reading and decoding every record of three topics in this JVM is CPU the bare windows
   * do not spend (with mostly 304s this JVM took 0.089-0.094 ms per fetch of the pipeline windows
   * watching every partition, 0.078 watching a quarter, against 0.051-0.060 serving the bare
   * windows). The throughput and CPU figures count every fetch.
   */
  static final int LAG_SAMPLE = 4;

  /** The busy web's trace seconds per wall second: publications a sixtieth of a second apart. */
  static final double BUSY_SCALE = 60;

  record Options(
      double minutes,
      int warmupSeconds,
      int settleSeconds,
      List<String> regimes,
      int alternate,
      double everySeconds,
      int sources,
      int hosts,
      int concurrency,
      int bareClients,
      double unchangedScale,
      double publishEvery,
      Map<String, String> env,
      Map<String, Map<String, String>> moduleEnv,
      Map<String, Map<String, String>> variant,
      boolean bare,
      boolean pgStatements) {

    /**
     * Unchanged: more sources than the traces' 1,496 (the rest copies), since 1,496 due every
     * second offered about 1,000 fetches/s and left one of two cores idle. 4,000 kept both busy
     * until the stack's CPU per fetch fell to ~0.9 ms (1.73 of 2 cores busy, 2026-11-29); 6,000
     * kept them busy again (1.97) until it cost ~0.76 ms with the benchmark's JVM (1.87-1.88 busy
     * that night); 8,000 did (2.02 and 1.95). An offered load under the stack's capacity measures
     * the load, not the stack: the benchmark prints the cores busy beside every window to tell. New
     * content: 1,496 (the traces' count) kept both cores busy until the evening of 2026-11-29, when
     * the stack's cost fell to ~2.2 ms per fetch and 1,496 left it at 1.80-1.85 cores busy; 2,000
     * keep it saturated (2.02), at 1.39 items per fetch against 1.26-1.37.
     */
    static final int UNCHANGED_SOURCES = 8000;

    static final int NEW_SOURCES = 2000;

    /** {@code --sources}, else the regime's default. */
    int sources(String regime) {
      return sources > 0 ? sources : regime.equals("new") ? NEW_SOURCES : UNCHANGED_SOURCES;
    }

    /** {@code --hosts}, else one host per source. */
    int hosts(String regime) {
      return hosts > 0 ? hosts : sources(regime);
    }

    static Options parse(String[] args) {
      double minutes = 3;
      int warmup = 90;
      int settle = 20;
      String regime = "both";
      int alternate = 2;
      double every = 1;
      int sources = 0; // each regime's default
      int hosts = 0;
      int concurrency = 400;
      int bareClients = 4;
      double unchanged = 1;
      double publishEvery = 1;
      Map<String, String> env = new TreeMap<>();
      Map<String, Map<String, String>> moduleEnv = new TreeMap<>();
      Map<String, Map<String, String>> variant = new TreeMap<>();
      boolean bare = true;
      boolean pgStatements = false;
      for (int i = 0; i < args.length; i++) {
        String v = i + 1 < args.length ? args[i + 1] : "";
        switch (args[i]) {
          case "--minutes" -> minutes = Double.parseDouble(v);
          case "--warmup" -> warmup = Integer.parseInt(v);
          case "--settle" -> settle = Integer.parseInt(v);
          case "--regime" -> regime = v;
          case "--alternate" -> alternate = Integer.parseInt(v);
          case "--every" -> every = Double.parseDouble(v);
          case "--sources" -> sources = Integer.parseInt(v);
          case "--hosts" -> hosts = Integer.parseInt(v);
          case "--concurrency" -> concurrency = Integer.parseInt(v);
          case "--bare-clients" -> bareClients = Integer.parseInt(v);
          case "--unchanged-scale" -> unchanged = Double.parseDouble(v);
          case "--publish-every" -> publishEvery = Double.parseDouble(v);
          case "--env" -> {
            // KEY=VALUE for every service, or module:KEY=VALUE for one
            int eq = v.indexOf('=');
            int colon = v.indexOf(':');
            if (eq < 0) {
              throw new IllegalArgumentException("--env [module:]KEY=VALUE: " + v);
            }
            if (colon > 0 && colon < eq) {
              moduleEnv
                  .computeIfAbsent(v.substring(0, colon), m -> new TreeMap<>())
                  .put(v.substring(colon + 1, eq), v.substring(eq + 1));
            } else {
              env.put(v.substring(0, eq), v.substring(eq + 1));
            }
          }
          case "--variant" -> {
            // module:KEY=VALUE: pipeline windows alternate between the settings without it and
            // with it, the module restarted before each window
            int eq = v.indexOf('=');
            int colon = v.indexOf(':');
            if (eq < 0 || colon <= 0 || colon > eq) {
              throw new IllegalArgumentException("--variant module:KEY=VALUE: " + v);
            }
            variant
                .computeIfAbsent(v.substring(0, colon), m -> new TreeMap<>())
                .put(v.substring(colon + 1, eq), v.substring(eq + 1));
          }
          case "--no-bare" -> {
            bare = false;
            i--;
          }
          case "--pg-statements" -> {
            pgStatements = true;
            i--;
          }
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
        i++;
      }
      List<String> regimes =
          switch (regime) {
            case "both" -> List.of("unchanged", "new");
            case "unchanged", "new" -> List.of(regime);
            default -> throw new IllegalArgumentException("--regime unchanged|new|both: " + regime);
          };
      return new Options(
          minutes,
          warmup,
          settle,
          regimes,
          alternate,
          every,
          sources,
          Math.max(0, hosts),
          concurrency,
          Math.max(1, bareClients),
          unchanged,
          publishEvery,
          env,
          moduleEnv,
          variant,
          variant.isEmpty() && bare,
          pgStatements);
    }

    Duration window() {
      return Duration.ofMillis((long) (minutes * 60_000));
    }
  }

  /** One pipeline or bare window. */
  record Window(
      String side,
      double seconds,
      long fetches,
      String detail,
      Map<String, Double> cpuMs,
      Map<String, Double> gcMs,
      Map<String, Long> rssKiB,
      Map<String, double[]> stages) {

    double rate() {
      return fetches / seconds;
    }

    Window as(String newSide) {
      return new Window(newSide, seconds, fetches, detail, cpuMs, gcMs, rssKiB, stages);
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    System.out.printf(
        "steady benchmark: demo sources (well-behaved, one per host unless --hosts) unchanged %d,"
            + " new %d, each due %.1f s after its last outcome; regimes %s; %d x (pipeline %.1f"
            + " min, bare %.1f min) after a %d s warm-up of each; bare loop %d at once; %d cores;"
            + " load at start %s%n",
        o.sources("unchanged"),
        o.sources("new"),
        o.everySeconds(),
        o.regimes(),
        o.alternate(),
        o.minutes(),
        o.minutes(),
        o.warmupSeconds(),
        o.concurrency(),
        Runtime.getRuntime().availableProcessors(),
        PipelineBenchmark.load());
    int exit = 0;
    Map<String, List<Window>> all = new LinkedHashMap<>();
    List<String> recs = new ArrayList<>();
    for (String regime : o.regimes()) {
      try {
        all.put(regime, regime(o, regime, recs));
      } catch (Exception e) {
        e.printStackTrace();
        exit = 1;
      }
    }
    SteadyReport.summary(all, recs);
    System.out.println("load at end: " + PipelineBenchmark.load());
    System.exit(exit);
  }

  private static List<Window> regime(Options o, String regime, List<String> recs) throws Exception {
    boolean fresh = regime.equals("new");
    double webScale = fresh ? BUSY_SCALE : o.unchangedScale();
    long step = Math.max(1, Math.round(BUSY_SCALE * o.publishEvery()));
    // trace seconds the busy web must cover: the whole regime and a margin
    long horizon =
        (long)
            (BUSY_SCALE
                * (900
                    + 2 * o.warmupSeconds()
                    + o.alternate() * (2 * o.window().toSeconds() + o.settleSeconds() + 60)));
    if (fresh) {
      System.out.printf(
          "%n=== regime new: every demo source publishes an item (a page a version) every %.2f s;"
              + " the bare loop's GETs are unconditional (every answer a 200, parsed);"
              + " starting a stack%n",
          step / BUSY_SCALE);
    } else {
      System.out.printf(
          "%n=== regime unchanged: the bundled traces at %.0f trace seconds per wall second;"
              + " the bare loop's GETs are conditional, as the worker's; starting a stack%n",
          webScale);
    }
    long t0 = System.nanoTime();
    Map<String, String> env = new LinkedHashMap<>();
    env.put("FRESHET_SCHEDULER_WEB_IMPORT_SPREAD", "0s");
    env.put("FRESHET_SCHEDULER_CADENCE_TIME_SCALE", Double.toString(3600 / o.everySeconds()));
    env.putAll(o.env());
    Map<String, String> pgConfig =
        o.pgStatements()
            ? Map.of(
                "shared_preload_libraries", "pg_stat_statements", "pg_stat_statements.max", "1000")
            : Map.of();
    List<Window> windows = new ArrayList<>();
    try (BenchStack stack =
        new BenchStack(
            o.sources(regime),
            o.hosts(regime),
            webScale,
            ws -> fresh ? BusyCatalog.build(ws, step, horizon) : Catalog.fromBundledTraces(ws),
            env,
            o.moduleEnv(),
            pgConfig,
            List.of())) {
      ProcessFigures figures = new ProcessFigures(stack);
      if (o.pgStatements()) {
        PgFigures.createExtension(stack);
      }
      PgFigures pg = new PgFigures(stack, o.pgStatements());
      KafkaFigures kafka = new KafkaFigures(stack);
      System.out.printf(
          "stack up in %.1f s; JVM options by process:%n", (System.nanoTime() - t0) / 1e9);
      figures.jvmFlags().forEach((k, v) -> System.out.printf("  %-20s %s%n", k, v));
      List<String> recording =
          figures.jvmFlags().entrySet().stream()
              .filter(e -> e.getValue().contains("-XX:ArchiveClassesAtExit"))
              .map(Map.Entry::getKey)
              .toList();
      if (!recording.isEmpty()) {
        // The launcher's first start of a build records each service's class-data archive; later
        // starts map it. The two are different JVMs (no archive mapped, every loaded class kept
        // for the dump), so compare CPU figures only between runs that both map or both record.
        System.out.println(
            "  recording class-data archives (first start of this build): "
                + recording
                + "; a later run with SKIP_BUILD=1 maps them");
      }
      System.out.println("  service environment over the launcher's: " + env);
      if (!o.moduleEnv().isEmpty()) {
        System.out.println("  by module: " + o.moduleEnv());
      }
      if (!o.variant().isEmpty()) {
        System.out.println(
            "  variant (windows alternate A = without, B = with; the module restarted before"
                + " each window): "
                + o.variant());
      }
      if (!pgConfig.isEmpty()) {
        System.out.println("  PostgreSQL settings over the launcher's: " + pgConfig);
      }
      ObjectNode config = PipelineBenchmark.JSON.createObjectNode();
      config.putObject("cadence").put("mode", "interval").put("every_minutes", 60);
      config.put("hints", "ignore");
      // Every item the web shows counts in its ground truth: at wall speed the traces' items are
      // dated months back, which the worker's default window (30 days) would drop.
      config.put("window_days", 0);
      var watcher =
          new PipelineBenchmark.TopicWatcher(stack.settings.bootstrapServers(), LAG_SAMPLE);
      watcher.start();
      BareLoopProcess bare = null;
      try {
        stack.importSources(config);
        SteadyLags lags =
            new SteadyLags(watcher, new PlainAvroDecoder(stack.settings.registryCcompatUrl()));
        // the bare loop's own JVM, started only when there are bare windows
        if (o.bare()) {
          bare =
              new BareLoopProcess(
                  stack.twin.catalog().sources().stream()
                      .map(src -> SteadyBareLoop.Target.of(stack.twin, src))
                      .toList(),
                  o.concurrency(),
                  o.bareClients(),
                  !fresh);
          figures.name(bare.pid(), BareLoopProcess.PART);
          System.out.printf(
              "bare loop: a JVM of its own (pid %d), the fetch-worker's options %s, %d HTTP"
                  + " clients%n",
              bare.pid(), bare.jvmOptions(), o.bareClients());
        }
        Duration warm = Duration.ofSeconds(o.warmupSeconds());
        System.out.printf(
            "warm-up: pipeline %d s (first fetches of the import included)%n", warm.toSeconds());
        pipelineWindow(stack, figures, lags, warm);
        if (o.bare()) {
          pause(stack);
          System.out.printf("warm-up: bare loop %d s%n", warm.toSeconds());
          bare.run(warm);
        }
        for (int k = 1; k <= o.alternate(); k++) {
          if (o.bare()) {
            resume(stack, o.settleSeconds());
          }
          if (!o.variant().isEmpty()) {
            // A, B, A, B…: a pair per alternation, the stack's settings first
            for (String side : List.of("A", "B")) {
              if (k > 1 || side.equals("B")) {
                switchTo(stack, o, side.equals("B"));
              }
              pg.start();
              var k0 = kafka.sample();
              Window p = pipelineWindow(stack, figures, lags, o.window()).as("pipeline " + side);
              var k1 = kafka.sample();
              SteadyReport.print(regime, k, p);
              KafkaFigures.print(k0, k1, p.fetches());
              PgFigures.print(pg.cpuMs(), pg.statements(25), pg.tables(), p.fetches());
              windows.add(p);
            }
            if (k == o.alternate()) {
              pause(stack);
            }
            continue;
          }
          pg.start();
          var k0 = kafka.sample();
          Window p = pipelineWindow(stack, figures, lags, o.window());
          var k1 = kafka.sample();
          SteadyReport.print(regime, k, p);
          KafkaFigures.print(k0, k1, p.fetches());
          PgFigures.print(pg.cpuMs(), pg.statements(25), pg.tables(), p.fetches());
          windows.add(p);
          if (o.bare() || k == o.alternate()) {
            pause(stack); // without bare windows, the pipeline runs on from window to window
          }
          if (o.bare()) {
            Window b = bareWindow(figures, bare, o.window());
            SteadyReport.print(regime, k, b);
            windows.add(b);
          }
        }
        String line = stack.reconcile().line();
        recs.add(regime + ": " + line);
        System.out.println("reconciliation with the demo web's ground truth: " + line);
        String notCounted = stack.notCounted();
        if (!notCounted.isEmpty()) {
          System.out.println("  " + notCounted);
        }
        String lost = stack.lostBreakdown();
        if (!lost.isEmpty()) {
          System.out.println("  " + lost);
        }
      } finally {
        if (bare != null) {
          bare.close();
        }
        watcher.shutdown();
      }
    }
    return windows;
  }

  private static Window pipelineWindow(
      BenchStack stack, ProcessFigures figures, SteadyLags lags, Duration length) throws Exception {
    try (Connection c = stack.connect()) {
      // the lag samples' backend is the benchmark's, not the stack's: reported apart
      try (var st = c.createStatement();
          var rs = st.executeQuery("SELECT pg_backend_pid()")) {
        rs.next();
        figures.name(rs.getLong(1), ProcessFigures.BENCH_PG);
      }
      Map<String, Double> out0 = outcomes(stack);
      ProcessFigures.Sample s0 = figures.sample();
      lags.start();
      long t0 = System.nanoTime();
      long end = t0 + length.toNanos();
      boolean warned = false;
      while (System.nanoTime() < end) {
        try {
          lags.sample(c);
        } catch (RuntimeException | java.sql.SQLException e) {
          if (!warned) {
            System.out.println("a lag sample failed (the stages may miss some fetches): " + e);
            warned = true;
          }
        }
        Thread.sleep(200);
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      ProcessFigures.Sample s1 = figures.sample();
      Map<String, Double> out1 = outcomes(stack);
      Map<String, Long> byStatus = new TreeMap<>();
      out1.forEach(
          (k, v) -> {
            long d = Math.round(v - out0.getOrDefault(k, 0.0));
            if (d > 0) {
              byStatus.put(k, d);
            }
          });
      long applied =
          byStatus.entrySet().stream()
              .filter(e -> e.getKey().endsWith("/applied"))
              .mapToLong(Map.Entry::getValue)
              .sum();
      String detail =
          String.format(
              "outcomes %s; %.2f items per fetch on the content topic (the lag sample: %d items"
                  + " of %d fetches)",
              byStatus,
              lags.completions() == 0 ? 0.0 : (double) lags.items() / lags.completions(),
              lags.items(),
              lags.completions());
      return new Window(
          "pipeline",
          seconds,
          applied,
          detail,
          minus(s1.cpuMs(), s0.cpuMs()),
          minus(s1.gcMs(), s0.gcMs()),
          s1.rssKiB(),
          lags.stages());
    }
  }

  private static Window bareWindow(ProcessFigures figures, BareLoopProcess bare, Duration length)
      throws Exception {
    ProcessFigures.Sample s0 = figures.sample();
    long t0 = System.nanoTime();
    SteadyBareLoop.Result r = bare.run(length);
    double seconds = (System.nanoTime() - t0) / 1e9;
    ProcessFigures.Sample s1 = figures.sample();
    String detail =
        String.format(
            "%d x 200 (%d feeds parsed, %d items), %d x 304, %d failed",
            r.ok(), r.parsed(), r.items(), r.notModified(), r.failed());
    return new Window(
        "bare",
        seconds,
        r.fetches(),
        detail,
        minus(s1.cpuMs(), s0.cpuMs()),
        minus(s1.gcMs(), s0.gcMs()),
        s1.rssKiB(),
        Map.of());
  }

  /**
   * Restarts each module of the variant with its settings without ({@code b} false) or with the
   * variant's, then lets the pipeline settle.
   */
  private static void switchTo(BenchStack stack, Options o, boolean b) throws Exception {
    for (var e : o.variant().entrySet()) {
      Map<String, String> env = new TreeMap<>(o.moduleEnv().getOrDefault(e.getKey(), Map.of()));
      if (b) {
        env.putAll(e.getValue());
      }
      stack.services.replaceEnv(e.getKey(), env);
      stack.services.stop(e.getKey(), Duration.ofSeconds(30));
      long t0 = System.nanoTime();
      stack.services.restart(e.getKey());
      System.out.printf(
          "%s %s ready in %.1f s%n", e.getKey(), b ? "B" : "A", (System.nanoTime() - t0) / 1e9);
    }
    System.out.printf("%n(switched to %s; settling %d s)%n", b ? "B" : "A", o.settleSeconds());
    Thread.sleep(o.settleSeconds() * 1000L);
  }

  /** freshet_scheduler_outcomes_total by "status/result". */
  private static Map<String, Double> outcomes(BenchStack stack) throws Exception {
    Map<String, Double> out = new TreeMap<>();
    for (String line : stack.prometheus(stack.settings.schedulerPort()).split("\n")) {
      if (!line.startsWith("freshet_scheduler_outcomes_total{")) {
        continue;
      }
      String labels = line.substring(line.indexOf('{') + 1, line.lastIndexOf('}'));
      String status = label(labels, "status");
      String result = label(labels, "result");
      double v = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      out.merge(status.toLowerCase() + "/" + result, v, Double::sum);
    }
    return out;
  }

  private static String label(String labels, String name) {
    int i = labels.indexOf(name + "=\"");
    if (i < 0) {
      return "?";
    }
    int from = i + name.length() + 2;
    return labels.substring(from, labels.indexOf('"', from));
  }

  /** Every source disabled (no claims); waits until no lease is left (the in-flight answered). */
  private static void pause(BenchStack stack) throws Exception {
    try (Connection c = stack.connect();
        Statement st = c.createStatement()) {
      // in id order, as the scheduler locks rows (ADR 0017): a whole-table update in physical
      // order could deadlock with a poll being applied
      st.executeUpdate(
          "UPDATE scheduler.sources SET enabled = false WHERE id IN"
              + " (SELECT id FROM scheduler.sources ORDER BY id FOR UPDATE)");
      long deadline = System.currentTimeMillis() + 120_000;
      while (System.currentTimeMillis() < deadline) {
        try (ResultSet rs =
            st.executeQuery(
                "SELECT count(*) FROM scheduler.sources WHERE lease_until IS NOT NULL")) {
          rs.next();
          if (rs.getLong(1) == 0) {
            break;
          }
        }
        Thread.sleep(200);
      }
    }
    Thread.sleep(3_000); // the sink and stats finish what the last fetches emitted
  }

  private static void resume(BenchStack stack, int settleSeconds) throws Exception {
    try (Connection c = stack.connect();
        Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE scheduler.sources SET enabled = true, next_due_at = now()");
    }
    Thread.sleep(settleSeconds * 1000L);
  }

  static <T extends Number> Map<String, Double> minus(Map<String, T> a, Map<String, T> b) {
    Map<String, Double> out = new TreeMap<>();
    a.forEach(
        (k, v) -> out.put(k, v.doubleValue() - (b.containsKey(k) ? b.get(k).doubleValue() : 0)));
    return out;
  }
}
