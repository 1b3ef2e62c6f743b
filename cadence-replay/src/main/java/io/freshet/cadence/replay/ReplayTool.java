package io.freshet.cadence.replay;

import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.RunMetrics;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.sim.SimSetup;
import io.freshet.cadence.sim.Simulator;
import io.freshet.cadence.sim.Trace;
import io.freshet.cadence.sim.TraceCsv;
import io.freshet.cadence.sim.TraceFormatException;
import io.freshet.cadence.sim.peer.PolicyCatalog;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The analysts' replay: what would another cadence have cost and gained on the recorded history?
 *
 * <p>Reads {@code freshet.fetch.completed.v1} (and with {@code --content yes} also {@code
 * freshet.content.fetched.v1}) over the window with a consumer in no group that commits nothing,
 * rebuilds each source's change history ({@link ChangeHistory}), puts it on the simulated timeline
 * of the recording ({@link Timeline}: a scaled demo's events carry wall-clock times), writes it as
 * the simulator's trace ({@code trace.csv}), runs the simulator for the current configuration
 * (adaptive at the budget) and each candidate, prints the table on stdout and writes {@code
 * replay.csv} and {@code replay.html} (the chart). Progress on stderr; bad input is one line on
 * stderr and exit code 2.
 */
@Command(
    name = "replay",
    sortOptions = false,
    sortSynopsis = false,
    usageHelpWidth = 100,
    description = {
      "What would another cadence have cost and gained on the recorded history? Rebuilds each"
          + " source's changes from the FetchCompleted outcomes of the window, simulates the"
          + " current configuration (adaptive at the budget) and each candidate on them, prints"
          + " a table on stdout and writes trace.csv, replay.csv and replay.html (the chart) to"
          + " --out. Reads with a consumer in no group that commits nothing.",
      "",
      "Times: --from and --to are wall-clock instants as the events are recorded, or spans back"
          + " from the newest recorded fetch (10m = the last 10 minutes of the recording). When"
          + " the recorded world ran faster than the wall clock (the local demo: 1440, a day per"
          + " minute), --time-scale puts the events back on that simulated timeline: the window"
          + " is simulated as the days it stood for, and fetches per hour and delays are in"
          + " simulated hours.",
      ""
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:the table was printed and the files written",
      "1:a failure: Kafka or the registry did not answer, a file could not be written",
      "2:bad input: an argument, the --configs file, or a window without any recorded change"
    },
    footerHeading = "%nExample (the last 10 minutes of ./freshet up's demo, 1440x):%n",
    footer = {
      "  replay --bootstrap 127.0.0.1:19092 --registry http://127.0.0.1:18081/apis/registry/v2 \\",
      "         --from 10m --time-scale 1440 --out /tmp/replay",
      "  (./freshet replay --from 10m passes the broker, the registry and the demo's recorded clock)"
    })
public final class ReplayTool implements Callable<Integer> {

  /** Yes or no, as the option values are spelt. */
  enum YesNo {
    yes,
    no
  }

  /** What a simulated fetch sees, as the option values are spelt. */
  enum Observe {
    feed,
    page
  }

  @Option(
      names = "--bootstrap",
      required = true,
      paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers")
  String bootstrap;

  @Option(
      names = "--registry",
      required = true,
      paramLabel = "URL",
      description = "the schema registry's Apicurio v2 API (.../apis/registry/v2)")
  String registry;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "TIME",
      converter = TimeArg.Converter.class,
      description =
          "start of the window: an ISO-8601 instant (2026-11-01T00:00:00Z) or a span"
              + " back from the end of the recording (90s, 10m, 2h, 3d)")
  TimeArg from;

  @Option(
      names = "--to",
      paramLabel = "TIME",
      converter = TimeArg.Converter.class,
      description = "end of the window, same forms (default: the newest recorded fetch)")
  TimeArg to;

  @Option(
      names = "--time-scale",
      paramLabel = "X",
      defaultValue = "1",
      description =
          "simulated seconds per recorded wall second (default: ${DEFAULT-VALUE},"
              + " real time; the local demo's FRESHET_DEMO_SCALE, 1440)")
  double timeScale;

  @Option(
      names = "--wall-origin",
      paramLabel = "INSTANT",
      converter = InstantConverter.class,
      description =
          "with --time-scale: a wall instant whose simulated time is --model-origin"
              + " (default: the start of the window)")
  Instant wallOrigin;

  @Option(
      names = "--model-origin",
      paramLabel = "INSTANT",
      converter = InstantConverter.class,
      description =
          "the simulated time at --wall-origin (default: the same instant); the local"
              + " demo's trace start, so that times of day are the traces' own")
  Instant modelOrigin;

  @Option(
      names = "--configs",
      paramLabel = "FILE",
      description =
          "candidates, a JSON array: [{\"name\": \"every_3h\", \"policy\": \"fixed\","
              + " \"scale\": 3, \"budget_per_hour\": 50}, ...] (default: adaptive at half and twice"
              + " the budget, feed_frequency, signal_adaptive, fixed_1h)")
  Path configs;

  @Option(
      names = "--budget-per-hour",
      paramLabel = "N",
      description =
          "fetches per (simulated) hour of the current configuration (default: the rate"
              + " observed in the window)")
  Double budgetPerHour;

  @Option(
      names = "--observe",
      paramLabel = "feed|page",
      defaultValue = "feed",
      description =
          "what a simulated fetch sees: a feed's latest items or only a page's"
              + " change (default: ${DEFAULT-VALUE})")
  Observe observe;

  @Option(
      names = "--content",
      paramLabel = "yes|no",
      defaultValue = "no",
      description =
          "also count the items on freshet.content.fetched.v1 (default: ${DEFAULT-VALUE})")
  YesNo content;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = ".",
      description = "where trace.csv, replay.csv and replay.html go (default: ${DEFAULT-VALUE})")
  Path out;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  boolean help;

  private final PrintStream stdout;
  private final PrintStream stderr;

  private ReplayTool(PrintStream stdout, PrintStream stderr) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the replay; returns the exit code (0 ok, 1 failure, 2 bad input). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    // `replay ARGS` as the stats-aggregator's jar took it is still accepted.
    String[] rest =
        args.length > 0 && args[0].equals("replay")
            ? Arrays.copyOfRange(args, 1, args.length)
            : args;
    CommandLine cli = new CommandLine(new ReplayTool(out, err));
    cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setParameterExceptionHandler(
        (e, a) -> {
          err.println("replay: " + oneLine(unmatchedFirst(e)) + " (replay --help)");
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (e, c, parsed) -> {
          if (e instanceof IllegalArgumentException || e instanceof TraceFormatException) {
            err.println("replay: " + e.getMessage());
            return 2;
          }
          for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConfigException) { // the only client setting taken from the user
              err.println(
                  "replay: --bootstrap "
                      + parsed.matchedOptionValue("--bootstrap", "")
                      + ": "
                      + t.getMessage());
              return 2;
            }
          }
          err.println(
              "replay: failed: "
                  + (e instanceof IllegalStateException ? "" : e.getClass().getSimpleName() + ": ")
                  + e.getMessage());
          return 1;
        });
    return cli.execute(rest);
  }

  /**
   * A misspelt option is reported as such, not as the required option it was meant to be (picocli
   * checks the required options first).
   */
  private static ParameterException unmatchedFirst(ParameterException e) {
    var parsed = e.getCommandLine().getParseResult();
    if (!(e instanceof UnmatchedArgumentException)
        && parsed != null
        && !parsed.unmatched().isEmpty()) {
      return new UnmatchedArgumentException(e.getCommandLine(), parsed.unmatched());
    }
    return e;
  }

  /** picocli's message on one line, with the options a misspelt one may have meant. */
  private static String oneLine(ParameterException e) {
    String m = e.getMessage().replace(System.lineSeparator(), " ").replace('\n', ' ').trim();
    if (e instanceof UnmatchedArgumentException u) {
      Set<String> meant = new LinkedHashSet<>(u.getSuggestions());
      for (String arg : u.getUnmatched()) {
        String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
        if (name.startsWith("--")) {
          for (String option : e.getCommandLine().getCommandSpec().optionsMap().keySet()) {
            if (option.startsWith("--") && distance(name, option) <= 2) {
              meant.add(option);
            }
          }
        }
      }
      if (!meant.isEmpty()) {
        m += "; did you mean " + String.join(" or ", meant) + "?";
      }
    }
    return m;
  }

  /** Edit distance with transpositions (optimal string alignment): --form is 1 from --from. */
  static int distance(String a, String b) {
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return d[a.length()][b.length()];
  }

  @Override
  public Integer call() throws IOException {
    ObserveMode mode = observe == Observe.page ? ObserveMode.PAGE : ObserveMode.FEED;
    if (!(timeScale > 0) || Double.isInfinite(timeScale)) {
      throw usage("--time-scale: expected a positive number, got " + timeScale);
    }
    if (budgetPerHour != null && (!(budgetPerHour > 0) || budgetPerHour.isInfinite())) {
      throw usage("--budget-per-hour: expected a positive number, got " + budgetPerHour);
    }
    if (modelOrigin != null && wallOrigin == null) {
      throw usage("--model-origin needs --wall-origin (the wall instant it corresponds to)");
    }
    List<Candidate> configured = null;
    if (configs != null) {
      if (!Files.exists(configs)) {
        throw usage("--configs " + configs + ": no such file");
      }
      if (!Files.isRegularFile(configs) || !Files.isReadable(configs)) {
        throw usage("--configs " + configs + ": not a readable file");
      }
      try {
        configured = Candidate.read(configs);
      } catch (IllegalArgumentException e) {
        throw usage("--configs " + e.getMessage());
      }
    }
    Files.createDirectories(out);

    var topics = FreshetTopics.create(RegistrySettings.of(registry, false));
    var reader = new OutcomeReader(bootstrap, stderr);
    String completed = topics.fetchCompleted().name();
    Instant newest = null;
    if (from.relative() || (to != null && to.relative())) {
      newest = reader.newest(completed);
      if (newest == null) {
        throw usage("nothing recorded on " + completed + " at " + bootstrap);
      }
    }
    Instant fromWall = from.resolve(newest);
    Instant toWall = to == null ? null : to.resolve(newest);
    if (toWall != null && !toWall.isAfter(fromWall)) {
      throw usage("--to (" + toWall + ") must be after --from (" + fromWall + ")");
    }
    Timeline timeline =
        new Timeline(
            timeScale,
            wallOrigin != null ? wallOrigin : fromWall,
            modelOrigin != null ? modelOrigin : wallOrigin != null ? wallOrigin : fromWall);

    var history = new ChangeHistory();
    long t0 = System.nanoTime();
    OutcomeReader.Read read =
        reader.read(
            topics.fetchCompleted(), fromWall, toWall, (FetchCompleted o) -> history.add(o));
    String contentNote = "";
    if (content == YesNo.yes) {
      OutcomeReader.Read items =
          reader.read(
              topics.contentFetched(), fromWall, toWall, (ContentFetched c) -> history.add(c));
      contentNote =
          String.format(
              Locale.ROOT,
              "; %d content records (%d in the window, %d undecodable)",
              items.records(),
              items.used(),
              items.undecodable());
    }
    stderr.printf(
        Locale.ROOT,
        "[replay] read %d records (%d in the window, %d undecodable)%s in %.1f s: %d sources"
            + " changed %d times over %d fetches%n",
        read.records(),
        read.used(),
        read.undecodable(),
        contentNote,
        (System.nanoTime() - t0) / 1e9,
        history.sources(),
        history.changes(),
        history.fetches());
    if (history.sources() == 0) {
      String hint =
          !timeline.isReal() && !from.relative() && fromWall.isBefore(timeline.wallOrigin())
              ? "; --from and --to are wall-clock times as recorded, not simulated ones"
              : "";
      throw usage(
          "no change recorded from "
              + fromWall
              + (toWall != null ? " to " + toWall : "")
              + " ("
              + read.used()
              + " outcomes in the window)"
              + hint);
    }
    // Without --to, the window ends a simulated second after the newest fetch read.
    Instant endWall =
        toWall != null
            ? toWall
            : history.last().plusMillis(Math.max(1, Math.round(1000 / timeScale)));
    Instant modelFrom = timeline.toModel(fromWall);
    Instant modelEnd = timeline.toModel(endWall);
    double hours = timeline.modelHours(fromWall, endWall);
    if (!(hours > 0) || modelEnd.getEpochSecond() <= modelFrom.getEpochSecond()) {
      throw usage("the window from " + fromWall + " to " + endWall + " is empty");
    }
    Path tracePath = out.resolve("trace.csv");
    try (BufferedWriter w = Files.newBufferedWriter(tracePath, StandardCharsets.UTF_8)) {
      history.writeTrace(w, timeline);
    }
    Trace trace;
    try (BufferedReader r = Files.newBufferedReader(tracePath, StandardCharsets.UTF_8)) {
      trace = TraceCsv.read(r);
    }
    double budget =
        budgetPerHour != null ? budgetPerHour : Math.max(1.0, history.fetches() / hours);
    stderr.printf(
        Locale.ROOT,
        "[replay] window %s .. %s%s: %s of simulated time; budget %.2f fetches per%s hour (%s)%n",
        fromWall,
        endWall,
        timeline.isReal()
            ? ""
            : String.format(
                Locale.ROOT,
                " recorded at %sx, simulated %s .. %s",
                number(timeScale),
                modelFrom,
                modelEnd),
        span(hours),
        budget,
        timeline.isReal() ? "" : " simulated",
        budgetPerHour != null ? "--budget-per-hour" : "as observed");

    List<Candidate> candidates = new ArrayList<>();
    candidates.add(Candidate.current());
    candidates.addAll(configured != null ? configured : Candidate.defaults(budget));
    stderr.printf("[replay] simulating %d configurations%n", candidates.size());
    Map<String, SimPolicy.Factory> factories = PolicyCatalog.factories();
    Map<Double, Simulator> simulators = new HashMap<>();
    List<ReplayResult> results = new ArrayList<>();
    for (Candidate c : candidates) {
      double b = c.budget(budget);
      Simulator sim =
          simulators.computeIfAbsent(
              b,
              x ->
                  new Simulator(
                      new SimSetup(
                          trace,
                          mode,
                          modelFrom.getEpochSecond(),
                          modelEnd.getEpochSecond(),
                          x,
                          SimSetup.FEED_SIZE,
                          true)));
      RunMetrics m = sim.run(factories.get(c.policy()), c.scale(), true, Long.MAX_VALUE);
      results.add(new ReplayResult(c, b, hours, m));
    }
    ReplayResult.printTable(results, stdout);
    Path csv = out.resolve("replay.csv");
    ReplayResult.writeCsv(results, csv);
    Path html = out.resolve("replay.html");
    String title =
        "Freshet replay "
            + fromWall
            + " .. "
            + endWall
            + (timeline.isReal()
                ? ""
                : " (recorded at " + number(timeScale) + "x: " + span(hours) + ")")
            + ", "
            + trace.sources()
            + " sources";
    ReplayResult.writeChart(results, title, !timeline.isReal(), html);
    stderr.println("[replay] wrote " + tracePath + ", " + csv + " and " + html);
    return 0;
  }

  private static IllegalArgumentException usage(String message) {
    return new IllegalArgumentException(message);
  }

  /** 1440 rather than 1440.0. */
  static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(Locale.ROOT, "%s", v);
  }

  /** A span of hours for people: 45.0 minutes, 6.5 hours, 10.0 days. */
  static String span(double hours) {
    if (hours < 1) {
      return String.format(Locale.ROOT, "%.1f minutes", hours * 60);
    }
    if (hours < 48) {
      return String.format(Locale.ROOT, "%.1f hours", hours);
    }
    return String.format(Locale.ROOT, "%.1f days", hours / 24);
  }

  /** picocli's converter of the origins: ISO-8601 instants or offset date-times. */
  static final class InstantConverter implements CommandLine.ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      TimeArg t = TimeArg.parse(value);
      if (t.relative()) {
        throw new CommandLine.TypeConversionException(
            "'" + value + "' is not an ISO-8601 instant (2025-02-18T00:00:00Z)");
      }
      return t.at();
    }
  }
}
