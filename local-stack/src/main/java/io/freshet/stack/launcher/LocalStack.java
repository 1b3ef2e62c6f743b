package io.freshet.stack.launcher;

import io.freshet.kit.cli.CommandLines;
import io.freshet.kit.kafka.DeadLetterTool;
import io.freshet.schemas.registry.SchemaRegistrar;
import io.freshet.stack.demoweb.DemoWebSettings;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * The launcher behind {@code ./freshet}: {@code up} (everything, live progress until stopped),
 * {@code infra} (Kafka, PostgreSQL and the registry only), {@code status [--json]}, {@code dlq ...}
 * (the dead-letter tool), {@code keys create|list|revoke} (API keys, {@link KeysCommand}). One line
 * on stderr and exit 1 on a failure it can name, exit 2 on bad input; {@code --help} on each
 * command.
 */
public final class LocalStack {

  private final StackSettings s;
  private final String java;
  private final List<AutoCloseable> toStop = new ArrayList<>();
  private ManagedProcess demoWeb;

  /** The trace instant the demo web replays at its origin (also the scheduler's model origin). */
  static final Instant TRACE_START = DemoWebSettings.defaults().traceStart();

  /** When the demo web's replay started (wall, whole seconds, as its clock takes it). */
  private Instant demoOrigin;

  /** Set when Ctrl-C (or SIGTERM) began the shutdown: a start interrupted by it is not an error. */
  private static volatile boolean stopRequested;

  LocalStack(StackSettings settings, String java) {
    this.s = settings;
    this.java = java;
  }

  public static void main(String[] args) {
    int code = run(args);
    if (code != 0) {
      System.exit(code);
    }
  }

  /**
   * Runs one command; returns its exit code (0 ok, 1 failure, 2 bad input). {@code up} returns once
   * Ctrl-C (or SIGTERM) stopped everything, from within the shutdown: the JVM is exiting.
   */
  static int run(String[] args) {
    CommandLine cli = CommandLines.create(new Launcher(), "freshet", System.out, System.err);
    cli.getSubcommands().get("dlq").setStopAtUnmatched(true);
    cli.setExecutionExceptionHandler(
        (e, c, parsed) -> {
          if (stopRequested) {
            return 0; // a part ended because we are stopping everything; the hook reports that
          }
          if (e instanceof StackException || e instanceof IllegalArgumentException) {
            System.err.println("freshet: " + e.getMessage());
            return 1;
          }
          if (e instanceof IOException) {
            System.err.println("freshet: " + e);
            return 1;
          }
          throw e;
        });
    return cli.execute(args);
  }

  /** This machine's settings ({@code FRESHET_*}). */
  static StackSettings settingsFromEnvironment() {
    return StackSettings.fromEnvironment(
        System.getenv(), Path.of(System.getProperty("freshet.project.dir", ".")));
  }

  /** The launcher with this machine's settings ({@code FRESHET_*}) and this JVM's java. */
  private static LocalStack fromEnvironment() {
    StackSettings settings = settingsFromEnvironment();
    String java = ProcessHandle.current().info().command().orElse("java");
    return new LocalStack(settings, java);
  }

  /** {@code ./freshet}'s Java side; without a command, {@code up}. */
  @Command(
      name = "./freshet",
      description = {
        "The launcher behind ./freshet (which builds what is missing first; see ./freshet --help)."
            + " Without a command: up.",
        ""
      },
      subcommands = {
        Up.class,
        Infra.class,
        Status.class,
        Dlq.class,
        KeysCommand.class,
        PushReportCommand.class
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:done (up: stopped by Ctrl-C or ./freshet down)",
        "1:a failure: a part did not start, a port is taken, a preflight check failed",
        "2:bad input: an unknown command or option"
      })
  static final class Launcher implements Callable<Integer> {
    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws IOException {
      fromEnvironment().up(true, false);
      return 0;
    }
  }

  /** {@code up [--no-progress]}. */
  @Command(
      name = "up",
      description = {
        "Starts Kafka (KRaft), PostgreSQL, the registry, the services and the demo web with data"
            + " in $FRESHET_HOME, registers the demo sources (once), shows live progress until"
            + " Ctrl-C and stops everything in order.",
        ""
      })
  static final class Up implements Callable<Integer> {
    @Option(names = "--no-progress", description = "no live progress: only the start-up lines")
    boolean noProgress;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws IOException {
      fromEnvironment().up(true, noProgress);
      return 0;
    }
  }

  /** {@code infra}. */
  @Command(
      name = "infra",
      description = {"Starts Kafka, PostgreSQL and the registry only, until Ctrl-C.", ""})
  static final class Infra implements Callable<Integer> {
    @Mixin CommandLines.Help help;

    @Override
    public Integer call() throws IOException {
      fromEnvironment().up(false, true);
      return 0;
    }
  }

  /** {@code status [--json]}. */
  @Command(
      name = "status",
      description = {
        "The live figures once: sources by state, backlog, fetches, items, errors.",
        ""
      })
  static final class Status implements Callable<Integer> {
    @Option(names = "--json", description = "as one JSON object")
    boolean json;

    @Mixin CommandLines.Help help;

    @Override
    public Integer call() {
      fromEnvironment().status(json);
      return 0;
    }
  }

  /** {@code dlq ...}: the dead-letter tool against this machine's broker. */
  @Command(
      name = "dlq",
      description = {
        "Dead letters: list | show DLQ-TOPIC [--limit N] | redrive DLQ-TOPIC [--dry-run]"
            + " (the dead-letter tool against this machine's broker; dlq --help for more).",
        ""
      })
  static final class Dlq implements Callable<Integer> {
    /** Everything after {@code dlq}, for the dead-letter tool to parse (its --help included). */
    @Unmatched List<String> args = new ArrayList<>();

    @Override
    public Integer call() {
      return DeadLetterTool.run(
          args.toArray(String[]::new),
          fromEnvironment().s.bootstrapServers(),
          System.out,
          System.err);
    }
  }

  void up(boolean everything, boolean quiet) throws IOException {
    List<String> problems = Preflight.problems(s);
    if (!problems.isEmpty()) {
      throw new StackException(String.join("; ", problems));
    }
    Files.createDirectories(s.home().resolve("run"));
    Files.writeString(
        s.home().resolve("run/launcher.pid"), Long.toString(ProcessHandle.current().pid()));
    CountDownLatch stopping = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  stopRequested = true;
                  stopping.countDown(); // the live display stops before anything else does
                  System.out.println(
                      "\nfreshet: stopping (services, demo web, registry, Kafka, PostgreSQL) ...");
                  stopAll();
                  stopped.countDown();
                  System.out.println("freshet: stopped; data kept in " + s.home());
                },
                "freshet-stop"));
    long t0 = System.nanoTime();
    say("starting Kafka, PostgreSQL and the schema registry (data in " + s.home() + ")");
    Infrastructure infra = new Infrastructure(s, java);
    toStop.add(infra);
    infra.start();
    for (var r : new SchemaRegistrar(s.registryCcompatUrl()).registerAll()) {
      say("schema " + r.subject() + " registered, id " + r.id());
    }
    say(
        "infrastructure ready in "
            + (System.nanoTime() - t0) / 1_000_000
            + " ms: Kafka "
            + s.bootstrapServers()
            + ", PostgreSQL "
            + s.jdbcUrl("freshet")
            + ", registry "
            + s.registryCcompatUrl());
    if (everything) {
      startDemoWeb();
      Services services =
          new Services(s, java).withBindAddress(System.getenv("FRESHET_BIND_ADDRESS"));
      // The scheduler's cadence runs on the demo web's clock: model time = trace time, so sources
      // are fetched at the pace the demo publishes (scheduler-producer README, "Scaled cadence").
      services.withEnv(
          "scheduler-producer", cadenceTimeEnv(s.demoScale(), demoOrigin, TRACE_START));
      say(
          "cadence on the demo's clock: "
              + s.demoScale()
              + "x, so intervals of 15 min - 24 h (pro tier: at least 1 h) are "
              + wallText(900 / s.demoScale())
              + " - "
              + wallText(86_400 / s.demoScale())
              + " (at least "
              + wallText(3_600 / s.demoScale())
              + ") of wall time");
      toStop.add(services);
      List<String> skipped = services.start();
      for (String m : skipped) {
        say(m + ": not built here (no " + m + "/target/" + m + "-*-exec.jar), not started");
      }
      registerDemoSources(services.apiToken(), skipped.contains("scheduler-producer"));
      say(
          "all services healthy in "
              + (System.nanoTime() - t0) / 1_000_000
              + " ms; logs in "
              + s.logs());
      String bind = Services.bindAddress(System.getenv("FRESHET_BIND_ADDRESS"));
      say(
          "services listen on "
              + bind
              + (bind.equals(Services.LOOPBACK)
                  ? " (this machine only; FRESHET_BIND_ADDRESS=0.0.0.0 to listen wider)"
                  : " (every interface: anyone who reaches this machine reaches them)")
              + "; metrics on the management ports (public port + 1000), e.g. "
              + "http://127.0.0.1:"
              + Services.defaultManagementPort(s.schedulerPort())
              + "/actuator/prometheus");
      say(
          "API keys: the bootstrap admin key is in "
              + s.home().resolve("secrets").resolve("api-token")
              + "; a tenant's key: ./freshet keys create --tenant "
              + StackSettings.TENANT
              + " --role read|write");
    }
    if (quiet) {
      awaitQuietly(stopped);
    } else {
      liveProgress(stopping);
      awaitQuietly(stopped);
    }
  }

  /**
   * The scheduler's {@code freshet.scheduler.cadence-time.*} settings that put its cadence model on
   * the demo web's clock: at the replay's wall origin the model is at the trace instant the web
   * replays there, and it runs as many times faster. Model time is then trace time (to the second
   * the web's own clock keeps), so time-of-day and weekday rhythms fall on the traces' own days.
   */
  static Map<String, String> cadenceTimeEnv(double scale, Instant wallOrigin, Instant traceStart) {
    return Map.of(
        "FRESHET_SCHEDULER_CADENCE_TIME_SCALE", Double.toString(scale),
        "FRESHET_SCHEDULER_CADENCE_TIME_WALL_ORIGIN",
            wallOrigin.truncatedTo(ChronoUnit.SECONDS).toString(),
        "FRESHET_SCHEDULER_CADENCE_TIME_MODEL_ORIGIN",
            traceStart.truncatedTo(ChronoUnit.SECONDS).toString());
  }

  private static String wallText(double seconds) {
    return seconds < 120
        ? String.format(Locale.ROOT, "%.1f s", seconds)
        : String.format(Locale.ROOT, "%.1f min", seconds / 60);
  }

  private void startDemoWeb() throws IOException {
    Path dir = Files.createDirectories(s.home().resolve("demo-web"));
    Path originFile = dir.resolve("origin");
    if (!Files.exists(originFile)) {
      Files.writeString(originFile, Instant.now().toString());
    }
    String origin = Files.readString(originFile).trim();
    demoOrigin = Instant.parse(origin).truncatedTo(ChronoUnit.SECONDS);
    // The scale this replay runs at, for `status` (intervals in model time) and for the next `up`:
    // the origin is kept across runs, so another scale moves the replay to another trace instant.
    Path scaleFile = dir.resolve("scale");
    if (Files.exists(scaleFile)) {
      String before = Files.readString(scaleFile).trim();
      if (Double.parseDouble(before) != s.demoScale()) {
        say(
            "FRESHET_DEMO_SCALE is "
                + s.demoScale()
                + " but this replay began at "
                + before
                + ": the demo web jumps to another trace instant (delete "
                + originFile
                + " to replay from the start)");
      }
    }
    Files.writeString(scaleFile, Double.toString(s.demoScale()));
    // With the origin and the scale, the whole clock of the recording: every event the services
    // write is in wall time, and `./freshet replay` maps it back onto the trace's timeline.
    Files.writeString(dir.resolve("trace-start"), TRACE_START.toString());
    Path target = s.projectDir().resolve("local-stack/target");
    String cp =
        target.resolve("classes")
            + File.pathSeparator
            + Files.readString(target.resolve("local-stack.classpath")).trim();
    demoWeb =
        ManagedProcess.start(
            s,
            "demo-web",
            List.of(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-cp",
                cp,
                "io.freshet.stack.demoweb.DemoWebMain"),
            Map.of(
                "DEMO_WEB_PORT",
                Integer.toString(s.demoWebPort()),
                "DEMO_WEB_SOURCES",
                Integer.toString(s.demoSources()),
                "DEMO_WEB_SCALE",
                Double.toString(s.demoScale()),
                "DEMO_WEB_TRACE_START", // explicit: the scheduler's model origin must be the same
                TRACE_START.toString(),
                "DEMO_WEB_ORIGIN",
                origin),
            dir);
    demoWeb.awaitHttpOk(s.demoWebUrl() + "/_health", Duration.ofSeconds(60));
    say(
        "demo web: "
            + s.demoSources()
            + " sources at "
            + s.demoWebUrl()
            + " (ground truth at /_truth), replay started "
            + origin);
  }

  private void registerDemoSources(String token, boolean noScheduler) {
    if (noScheduler) {
      say("demo sources not registered: scheduler-producer is not running");
      return;
    }
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    try {
      send(
          http,
          HttpRequest.newBuilder(URI.create(s.schedulerUrl() + "/tenants"))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"id\":\""
                          + StackSettings.TENANT
                          + "\",\"tier\":\"pro\",\"max_sources\":"
                          + Math.max(1000, s.demoSources())
                          + "}"))
              .build(),
          true);
      String existing =
          send(
              http,
              HttpRequest.newBuilder(
                      URI.create(
                          s.schedulerUrl()
                              + "/sources?tenant_id="
                              + StackSettings.TENANT
                              + "&size=1"))
                  .header("Authorization", "Bearer " + token)
                  .GET()
                  .build(),
              false);
      if (!existing.contains("\"total\":0")) {
        say("demo sources already registered (resuming)");
        return;
      }
      String ndjson =
          send(
              http,
              HttpRequest.newBuilder(URI.create(s.demoWebUrl() + "/_sources")).GET().build(),
              false);
      send(
          http,
          HttpRequest.newBuilder(
                  URI.create(
                      s.schedulerUrl()
                          + "/sources/import/ndjson?tenant_id="
                          + StackSettings.TENANT))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/x-ndjson")
              .POST(HttpRequest.BodyPublishers.ofString(ndjson))
              .build(),
          false);
      say("demo sources registered: " + ndjson.lines().count());
    } catch (IOException e) {
      throw new StackException("registering the demo sources failed: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String send(HttpClient http, HttpRequest request, boolean conflictOk)
      throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2 && !(conflictOk && r.statusCode() == 409)) {
      throw new IOException(
          request.method()
              + " "
              + request.uri().getPath()
              + " answered "
              + r.statusCode()
              + ": "
              + r.body().lines().findFirst().orElse(""));
    }
    return r.body();
  }

  private void liveProgress(CountDownLatch stopping) {
    Progress progress = new Progress(s);
    boolean tty = System.console() != null;
    int previousLines = 0;
    while (stopping.getCount() > 0) {
      List<String> lines = new ArrayList<>();
      lines.add(
          "Freshet local stack — "
              + Instant.now().toString().substring(0, 19)
              + "Z — Ctrl-C stops everything");
      var figures = progress.figures();
      if (tty) {
        lines.addAll(Progress.screen(figures));
      } else {
        lines.set(0, Instant.now().toString().substring(0, 19) + "Z " + Progress.line(figures));
      }
      StringBuilder b = new StringBuilder();
      if (tty && previousLines > 0) {
        b.append("\033[").append(previousLines).append("A");
      }
      for (String l : lines) {
        b.append(l).append(tty ? "\033[K\n" : "\n");
      }
      System.out.print(b);
      System.out.flush();
      previousLines = lines.size();
      try {
        if (stopping.await(tty ? 2 : 30, TimeUnit.SECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private static void awaitQuietly(CountDownLatch stopped) {
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  void status(boolean json) {
    var figures = new Progress(s).figures();
    if (json) {
      System.out.println(Progress.json(figures));
    } else {
      Progress.screen(figures).forEach(System.out::println);
    }
  }

  private synchronized void stopAll() {
    for (int i = toStop.size() - 1; i >= 0; i--) {
      if (i == 0 && demoWeb != null) {
        demoWeb.stop(Duration.ofSeconds(5)); // after the services, before the infrastructure
      }
      try {
        toStop.get(i).close();
      } catch (Exception e) {
        System.err.println(
            "freshet: stopping "
                + toStop.get(i).getClass().getSimpleName()
                + ": "
                + e.getMessage());
      }
    }
    toStop.clear();
    try {
      Files.deleteIfExists(s.home().resolve("run/launcher.pid"));
    } catch (IOException ignored) {
      // checked for liveness by ./freshet
    }
  }

  private static void say(String line) {
    System.out.println("freshet: " + line);
  }
}
