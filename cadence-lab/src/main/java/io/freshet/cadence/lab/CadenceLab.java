package io.freshet.cadence.lab;

import io.freshet.cadence.sim.Comparison;
import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.PeerTuning;
import io.freshet.cadence.sim.PolicyReport;
import io.freshet.cadence.sim.RunMetrics;
import io.freshet.cadence.sim.SimSetup;
import io.freshet.cadence.sim.Trace;
import io.freshet.cadence.sim.TraceCsv;
import io.freshet.cadence.sim.TraceFormatException;
import io.freshet.cadence.sim.TraceGenerator;
import io.freshet.cadence.sim.TraceSplit;
import io.freshet.cadence.sim.WindowSpread;
import io.freshet.cadence.sim.peer.PolicyCatalog;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The cadence lab, {@code java -jar cadence-lab/target/cadence-lab.jar}, with the subcommands
 * {@link Simulate simulate} (compare the policies on a trace) and {@link Generate generate} (write
 * a synthetic trace); {@code --help} on each lists its options.
 *
 * <p>Bad input is reported on one line naming the argument or the trace line, with exit code 2.
 * Progress goes to stderr, the report table to stdout.
 */
@Command(
    name = "cadence-lab",
    sortOptions = false,
    sortSynopsis = false,
    usageHelpWidth = 100,
    description = {
      "The cadence lab: compares cadence policies on a change trace in an offline simulator,"
          + " and writes synthetic traces.",
      ""
    },
    subcommands = {CadenceLab.Simulate.class, CadenceLab.Generate.class, HelpCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done",
      "1:a failure: interrupted, or an unexpected error",
      "2:bad input: an argument, a trace file or line, a file that cannot be read or written"
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  cadence-lab generate --out trace.csv --sources 2000 --days 74",
      "  cadence-lab simulate --trace trace.csv --budget-per-hour 500 --policies all"
    })
public final class CadenceLab implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  boolean help;

  private final PrintStream out;
  private final PrintStream err;

  private CadenceLab(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the lab; returns the exit code (0 ok, 2 bad input, 1 unexpected failure). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    CadenceLab lab = new CadenceLab(out, err);
    CommandLine cli = new CommandLine(lab);
    cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cli.setParameterExceptionHandler(
        (e, a) -> {
          err.println("cadence-lab: error: " + problem(e) + " (" + hint(e.getCommandLine()) + ")");
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (e, c, parsed) -> {
          if (e instanceof UsageException
              || e instanceof TraceFormatException
              || e instanceof IOException
              || e instanceof UncheckedIOException) {
            err.println("cadence-lab: error: " + e.getMessage());
            return 2;
          }
          if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
            err.println("cadence-lab: interrupted");
            return 1;
          }
          err.println("cadence-lab: failed: " + e);
          return 1;
        });
    return cli.execute(args);
  }

  /** No command: the usage, exit code 2. */
  @Override
  public Integer call() {
    spec.commandLine().usage(out);
    return 2;
  }

  /** {@code cadence-lab simulate --help}, say: where to read about what was wrong. */
  private static String hint(CommandLine c) {
    return c.getCommandSpec().qualifiedName() + " --help";
  }

  /**
   * picocli's message on one line; a misspelt option or command is reported as such (not as the
   * required option picocli checks first), a value our converters refused as {@code --option: why}.
   */
  private static String problem(ParameterException e) {
    CommandLine c = e.getCommandLine();
    var parsed = c.getParseResult();
    if (!(e instanceof UnmatchedArgumentException)
        && parsed != null
        && !parsed.unmatched().isEmpty()) {
      e = new UnmatchedArgumentException(c, parsed.unmatched());
    }
    if (e instanceof UnmatchedArgumentException u) {
      String first = u.getUnmatched().isEmpty() ? "" : u.getUnmatched().getFirst();
      if (!c.getSubcommands().isEmpty() && !first.startsWith("-")) {
        return "unknown command '"
            + first
            + "'; allowed: "
            + String.join(
                ", ", c.getSubcommands().keySet().stream().filter(n -> !n.equals("help")).toList());
      }
      String m = oneLine(e.getMessage());
      return u.getSuggestions().isEmpty()
          ? m
          : m + "; did you mean " + String.join(" or ", u.getSuggestions()) + "?";
    }
    if (e.getCause() instanceof TypeConversionException t
        && e.getArgSpec() instanceof OptionSpec o) {
      return o.longestName() + ": " + t.getMessage();
    }
    return oneLine(e.getMessage());
  }

  private static String oneLine(String m) {
    return m.replace(System.lineSeparator(), " ").replace('\n', ' ').trim();
  }

  /** {@code simulate}: every policy on one trace, at equal cost or at their defaults. */
  @Command(
      name = "simulate",
      sortOptions = false,
      sortSynopsis = false,
      usageHelpWidth = 100,
      description = {
        "Runs every policy (or those of --policies) on the trace's window at the same fetch"
            + " budget and prints a table: fetches, mean/p50/p95 delay, freshness, harmonic"
            + " staleness, unseen changes, delay against the oracle. Progress on stderr.",
        ""
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:the table was printed (and --out written)",
        "1:a failure: interrupted, or an unexpected error",
        "2:bad input: an argument, the trace file or one of its lines, --out not writable"
      })
  static final class Simulate implements Callable<Integer> {

    @ParentCommand CadenceLab lab;

    @Option(
        names = "--trace",
        required = true,
        paramLabel = "FILE",
        description = "the change trace: CSV source_id,timestamp_iso[,signal_type,event_at]")
    Path trace;

    @Option(
        names = "--budget-per-hour",
        required = true,
        paramLabel = "N",
        converter = PositiveDouble.class,
        description = "fetches per hour that every policy is given")
    double budget;

    @Option(
        names = "--from",
        paramLabel = "T",
        converter = EpochSecond.class,
        description = "start of the window, ISO-8601 (default: the trace's first change)")
    Long from;

    @Option(
        names = "--to",
        paramLabel = "T",
        converter = EpochSecond.class,
        description = "end of the window, ISO-8601 (default: just after the trace's last change)")
    Long to;

    @Option(
        names = "--observe",
        paramLabel = "feed|page",
        defaultValue = "feed",
        converter = Observe.class,
        description =
            "what a fetch sees: a feed's latest items, or only a page's change (default:"
                + " ${DEFAULT-VALUE})")
    ObserveMode observe;

    @Option(
        names = "--policies",
        paramLabel = "all|a,b",
        defaultValue = "all",
        description = "the policies to compare, by name (default: ${DEFAULT-VALUE})")
    String policies;

    @Option(
        names = "--out",
        paramLabel = "FILE",
        description = "also write the table (or the spread) as CSV")
    Path outPath;

    @Option(
        names = "--per-source",
        paramLabel = "FILE",
        description =
            "also write each policy's figures per source as CSV (policy, source, changes, fetches,"
                + " delay sum and mean, share of the policy's total delay); not with --shifts")
    Path perSourcePath;

    @Option(
        names = "--at-defaults",
        description = "run the peers unscaled at their own defaults instead of at equal cost")
    boolean atDefaults;

    @Option(
        names = "--importance",
        paramLabel = "on|off",
        defaultValue = "on",
        converter = OnOff.class,
        description = "whether adaptive weights sources by importance (default: ${DEFAULT-VALUE})")
    OnOff.Value importance;

    @Option(
        names = "--feed-size",
        paramLabel = "N",
        defaultValue = "" + SimSetup.FEED_SIZE,
        converter = PositiveInt.class,
        description = "items a feed lists (default: ${DEFAULT-VALUE})")
    int feedSize;

    @Option(
        names = "--threads",
        paramLabel = "N",
        converter = PositiveInt.class,
        description = "threads to simulate on (default: the processors, ${DEFAULT-VALUE} here)")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(
        names = "--tune-peers",
        description = "also search each peer's own knobs and report the best as <peer>_tuned")
    boolean tunePeers;

    @Option(
        names = "--tune-window",
        arity = "2",
        paramLabel = "T",
        converter = EpochSecond.class,
        description =
            "also tune each peer's knobs on the earlier window FROM TO (ISO-8601, ending at or"
                + " before --from) and report that setting on the evaluated window as"
                + " <peer>_oos (out of sample)")
    List<Long> tuneWindow;

    @Option(
        names = "--half",
        paramLabel = "tuning|held-out",
        converter = HalfArg.class,
        description =
            "keep only one half of the sources (split by a hash of the source id); the budget is"
                + " scaled by the share of sources kept")
    TraceSplit.Half half;

    @Option(
        names = "--grid-minutes",
        paramLabel = "N",
        converter = PositiveInt.class,
        description =
            "move every change time up to the next multiple of N minutes (first-seen times left on"
                + " a poll grid instead of spread over the poll interval)")
    Integer gridMinutes;

    @Option(
        names = "--shifts",
        paramLabel = "N",
        defaultValue = "1",
        converter = PositiveInt.class,
        description =
            "run the comparison on N windows, each moved back by --shift-days, and print the"
                + " spread: min, median, max, mean and its standard error (default:"
                + " ${DEFAULT-VALUE})")
    int shifts;

    @Option(
        names = "--shift-days",
        paramLabel = "D",
        defaultValue = "7",
        converter = PositiveDouble.class,
        description =
            "days between the windows of --shifts; a fraction moves the start within a day, e.g."
                + " 0.125 = 3 h for the phase of the fetches (default: ${DEFAULT-VALUE})")
    double shiftDays;

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "this help")
    boolean help;

    @Override
    public Integer call() throws IOException, InterruptedException {
      simulate(this, lab.out, lab.err);
      return 0;
    }
  }

  /** {@code generate}: a synthetic trace. */
  @Command(
      name = "generate",
      sortOptions = false,
      sortSynopsis = false,
      usageHelpWidth = 100,
      description = {
        "Writes a synthetic change trace as CSV: log-normal base rates with daily and weekly"
            + " rhythms, bursts, dormancy and calendars. Deterministic for a given seed.",
        ""
      },
      exitCodeListHeading = "%nExit codes:%n",
      exitCodeList = {
        "0:the trace was written",
        "1:an unexpected failure",
        "2:bad input: an argument, --out not writable"
      })
  static final class Generate implements Callable<Integer> {

    private static final TraceGenerator.Settings DEFAULTS = TraceGenerator.Settings.benchmark();

    @ParentCommand CadenceLab lab;

    @Option(
        names = "--out",
        required = true,
        paramLabel = "FILE",
        description = "where the trace goes")
    Path out;

    @Option(
        names = "--sources",
        paramLabel = "N",
        converter = PositiveInt.class,
        description = "sources (default: ${DEFAULT-VALUE})")
    int sources = DEFAULTS.sources();

    @Option(
        names = "--days",
        paramLabel = "N",
        converter = PositiveInt.class,
        description = "days (default: ${DEFAULT-VALUE})")
    int days = DEFAULTS.days();

    @Option(
        names = "--seed",
        paramLabel = "N",
        converter = WholeNumber.class,
        description = "random seed (default: ${DEFAULT-VALUE})")
    long seed = DEFAULTS.seed();

    @Option(
        names = "--start",
        paramLabel = "T",
        converter = EpochSecond.class,
        description = "the trace's first instant, ISO-8601 (default: 2026-01-05T00:00:00Z)")
    Long start;

    @Option(
        names = "--median-per-day",
        paramLabel = "X",
        converter = PositiveDouble.class,
        description = "the median source's changes per day (default: ${DEFAULT-VALUE})")
    double medianPerDay = DEFAULTS.medianPerDay();

    @Option(
        names = "--sigma",
        paramLabel = "X",
        converter = NonNegativeDouble.class,
        description = "spread of the log rates (default: ${DEFAULT-VALUE})")
    double sigma = DEFAULTS.sigma();

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "this help")
    boolean help;

    @Override
    public Integer call() throws IOException {
      generate(this, lab.err);
      return 0;
    }
  }

  /** A number greater than 0. */
  static final class PositiveDouble implements ITypeConverter<Double> {
    @Override
    public Double convert(String v) {
      try {
        double d = Double.parseDouble(v);
        if (d > 0 && !Double.isInfinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new TypeConversionException("expected a positive number, got '" + v + "'");
    }
  }

  /** A number of at least 0. */
  static final class NonNegativeDouble implements ITypeConverter<Double> {
    @Override
    public Double convert(String v) {
      try {
        double d = Double.parseDouble(v);
        if (d >= 0) {
          return d;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new TypeConversionException("expected a number ≥ 0, got '" + v + "'");
    }
  }

  /** A whole number of at least 1. */
  static final class PositiveInt implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String v) {
      try {
        int n = Integer.parseInt(v);
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new TypeConversionException("expected a positive whole number, got '" + v + "'");
    }
  }

  /** Any whole number. */
  static final class WholeNumber implements ITypeConverter<Long> {
    @Override
    public Long convert(String v) {
      try {
        return Long.parseLong(v);
      } catch (NumberFormatException e) {
        throw new TypeConversionException("expected a whole number, got '" + v + "'");
      }
    }
  }

  /** An ISO-8601 instant, as epoch seconds. */
  static final class EpochSecond implements ITypeConverter<Long> {
    @Override
    public Long convert(String v) {
      try {
        return Instant.parse(v).getEpochSecond();
      } catch (DateTimeParseException e) {
        throw new TypeConversionException(
            "unparsable instant '" + v + "' (expected ISO-8601 such as 2026-01-05T00:00:00Z)");
      }
    }
  }

  /** {@code feed} or {@code page}. */
  static final class Observe implements ITypeConverter<ObserveMode> {
    @Override
    public ObserveMode convert(String v) {
      return switch (v) {
        case "feed" -> ObserveMode.FEED;
        case "page" -> ObserveMode.PAGE;
        default -> throw new TypeConversionException("expected feed or page, got '" + v + "'");
      };
    }
  }

  /** {@code on} or {@code off}. */
  static final class OnOff implements ITypeConverter<OnOff.Value> {
    enum Value {
      on,
      off
    }

    @Override
    public Value convert(String v) {
      return switch (v) {
        case "on" -> Value.on;
        case "off" -> Value.off;
        default -> throw new TypeConversionException("expected on or off, got '" + v + "'");
      };
    }
  }

  /** {@code --half}. */
  static final class HalfArg implements ITypeConverter<TraceSplit.Half> {
    @Override
    public TraceSplit.Half convert(String v) {
      return switch (v.trim().toLowerCase(Locale.ROOT)) {
        case "tuning" -> TraceSplit.Half.TUNING;
        case "held-out" -> TraceSplit.Half.HELD_OUT;
        default ->
            throw new TypeConversionException("expected tuning or held-out, got '" + v + "'");
      };
    }
  }

  private static void simulate(Simulate a, PrintStream out, PrintStream err)
      throws IOException, InterruptedException {
    Path tracePath = a.trace;
    double budget = a.budget;
    ObserveMode mode = a.observe;
    List<String> policies = policies(a.policies);
    boolean importance = a.importance == OnOff.Value.on;
    int feedSize = a.feedSize;
    int threads = a.threads;
    int shifts = a.shifts;
    double shiftDays = a.shiftDays;
    Long fromArg = a.from;
    Long toArg = a.to;

    long t0 = System.nanoTime();
    Trace trace = readTrace(tracePath);
    err.printf(
        Locale.ROOT,
        "[cadence-lab] read %d sources, %d changes from %s in %.1f s%n",
        trace.sources(),
        trace.changes(),
        tracePath,
        (System.nanoTime() - t0) / 1e9);
    if (trace.sources() == 0) {
      throw new UsageException("--trace: " + tracePath + " holds no changes");
    }
    if (a.gridMinutes != null) {
      trace = TraceSplit.onGrid(trace, a.gridMinutes * 60L);
      err.printf(
          Locale.ROOT, "[cadence-lab] change times moved onto a %d-minute grid%n", a.gridMinutes);
    }
    if (a.half != null) {
      int all = trace.sources();
      trace = TraceSplit.half(trace, a.half);
      if (trace.sources() == 0) {
        throw new UsageException("--half: no source of " + tracePath + " falls in that half");
      }
      budget = budget * trace.sources() / all;
      err.printf(
          Locale.ROOT,
          "[cadence-lab] %s half: %d of %d sources, %d changes; budget scaled to %.3f/h%n",
          a.half == TraceSplit.Half.TUNING ? "tuning" : "held-out",
          trace.sources(),
          all,
          trace.changes(),
          budget);
    }
    long from = fromArg != null ? fromArg : trace.start();
    long to = toArg != null ? toArg : trace.end() + 1;
    if (to <= from) {
      throw new UsageException("--to must be after --from");
    }
    SimSetup setup = new SimSetup(trace, mode, from, to, budget, feedSize, importance);
    TuneWindow tuneWindow = null;
    if (a.tuneWindow != null) {
      long tuneFrom = a.tuneWindow.get(0);
      long tuneTo = a.tuneWindow.get(1);
      if (tuneTo <= tuneFrom) {
        throw new UsageException("--tune-window: its end must be after its start");
      }
      if (tuneTo > from) {
        throw new UsageException(
            "--tune-window: must end at or before --from (out of sample: an earlier window)");
      }
      tuneWindow = new TuneWindow(from - tuneFrom, from - tuneTo);
      err.printf(
          Locale.ROOT,
          "[cadence-lab] peers also tuned out of sample on %s .. %s%n",
          Instant.ofEpochSecond(tuneFrom),
          Instant.ofEpochSecond(tuneTo));
    }
    boolean equalCost = !a.atDefaults;
    err.printf(
        Locale.ROOT,
        "[cadence-lab] window %s .. %s (%.1f days), budget %.1f/h = %.0f fetches, %s, %s%n",
        Instant.ofEpochSecond(from),
        Instant.ofEpochSecond(to),
        setup.hours() / 24,
        budget,
        setup.targetFetches(),
        mode.name().toLowerCase(Locale.ROOT),
        equalCost ? "equal cost" : "peers at their defaults");
    boolean tune = a.tunePeers;
    Path outPath = a.outPath;
    if (shifts > 1) {
      long step = Math.round(shiftDays * 86400);
      // every ratio of the spread is against the oracle of its window
      List<String> withOracle = new ArrayList<>(policies);
      if (!withOracle.contains("oracle")) {
        withOracle.addFirst("oracle");
      }
      List<WindowSpread.Shift> spread = new ArrayList<>();
      for (int k = 0; k < shifts; k++) {
        SimSetup moved =
            new SimSetup(trace, mode, from - k * step, to - k * step, budget, feedSize, importance);
        err.printf(
            Locale.ROOT,
            "[cadence-lab] window %d of %d: %s .. %s%n",
            k + 1,
            shifts,
            Instant.ofEpochSecond(moved.from()),
            Instant.ofEpochSecond(moved.to()));
        Compared c = compare(moved, withOracle, equalCost, threads, tune, tuneWindow, line -> {});
        for (PeerTuning.Best b : c.tuned()) {
          err.printf(Locale.ROOT, "[cadence-lab]   %s_tuned: %s%n", b.peer(), b.setting());
        }
        for (PeerTuning.OutOfSample o : c.outOfSample()) {
          err.printf(Locale.ROOT, "[cadence-lab]   %s_oos: %s%n", o.peer(), o.setting());
        }
        spread.add(new WindowSpread.Shift(moved.from(), moved.to(), c.reports()));
      }
      WindowSpread.print(spread, out);
      if (outPath != null) {
        Files.write(outPath, WindowSpread.csv(spread), StandardCharsets.UTF_8);
        err.println("[cadence-lab] wrote " + outPath);
      }
    } else {
      Compared c =
          compare(
              setup,
              policies,
              equalCost,
              threads,
              tune,
              tuneWindow,
              line -> err.println("[cadence-lab] " + line));
      printTable(c.reports(), out);
      for (PeerTuning.Best b : c.tuned()) {
        out.printf(Locale.ROOT, "%s_tuned: best of %d: %s%n", b.peer(), b.tried(), b.setting());
      }
      for (PeerTuning.OutOfSample o : c.outOfSample()) {
        out.printf(
            Locale.ROOT,
            "%s_oos: best of %d on the tuning window (mean delay %.3f h there): %s%n",
            o.peer(),
            o.tried(),
            o.tunedOn().meanDelayHours(),
            o.setting());
      }
      if (outPath != null) {
        List<String> lines = new ArrayList<>();
        lines.add(PolicyReport.CSV_HEADER);
        c.reports().forEach(r -> lines.add(r.toCsv()));
        Files.write(outPath, lines, StandardCharsets.UTF_8);
        err.println("[cadence-lab] wrote " + outPath);
      }
      if (a.perSourcePath != null) {
        Files.write(
            a.perSourcePath, perSourceCsv(c.reports(), setup.trace()), StandardCharsets.UTF_8);
        err.println("[cadence-lab] wrote " + a.perSourcePath);
      }
    }
    err.printf(Locale.ROOT, "[cadence-lab] total %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  /**
   * One window's reports, the tuned peers' settings when they were tuned in sample, and those tuned
   * out of sample.
   */
  private record Compared(
      List<PolicyReport> reports,
      List<PeerTuning.Best> tuned,
      List<PeerTuning.OutOfSample> outOfSample) {}

  /**
   * The out-of-sample tuning window as seconds before the evaluated window's start (so that it
   * moves with the window under {@code --shifts}): from {@code from − startBefore} to {@code from −
   * endBefore}.
   */
  private record TuneWindow(long startBefore, long endBefore) {
    SimSetup on(SimSetup evaluated) {
      return new SimSetup(
          evaluated.trace(),
          evaluated.mode(),
          evaluated.from() - startBefore,
          evaluated.from() - endBefore,
          evaluated.budgetPerHour(),
          evaluated.feedSize(),
          evaluated.importance());
    }
  }

  /**
   * Every policy at equal cost (or at defaults), then the tuned peers when {@code tune}, then the
   * peers tuned on {@code tuneWindow} (when not null) and run on this window.
   */
  private static Compared compare(
      SimSetup setup,
      List<String> policies,
      boolean equalCost,
      int threads,
      boolean tune,
      TuneWindow tuneWindow,
      Consumer<String> progress)
      throws InterruptedException {
    List<PolicyReport> reports = Comparison.run(setup, policies, equalCost, threads, progress);
    if (!tune && tuneWindow == null) {
      return new Compared(reports, List.of(), List.of());
    }
    reports = new ArrayList<>(reports);
    PolicyReport oracle =
        reports.stream().filter(r -> r.policy().equals("oracle")).findFirst().orElse(null);
    if (oracle == null) {
      oracle = Comparison.run(setup, List.of("oracle"), true, threads, line -> {}).get(0);
    }
    double oracleDelay = oracle.metrics().meanDelayHours();
    List<PeerTuning.Best> tuned = List.of();
    if (tune) {
      long tuneStart = System.nanoTime();
      tuned = PeerTuning.run(setup, threads, line -> progress.accept("tune " + line));
      progress.accept(
          String.format(
              Locale.ROOT, "peer tuning took %.1f s", (System.nanoTime() - tuneStart) / 1e9));
      for (PeerTuning.Best b : tuned) {
        reports.add(
            new PolicyReport(
                b.peer() + "_tuned", b.metrics(), b.metrics().meanDelayHours() / oracleDelay));
      }
    }
    List<PeerTuning.OutOfSample> oos = List.of();
    if (tuneWindow != null) {
      long start = System.nanoTime();
      oos =
          PeerTuning.outOfSample(
              tuneWindow.on(setup), setup, threads, line -> progress.accept("tune-window " + line));
      progress.accept(
          String.format(
              Locale.ROOT,
              "out-of-sample peer tuning took %.1f s",
              (System.nanoTime() - start) / 1e9));
      for (PeerTuning.OutOfSample o : oos) {
        reports.add(
            new PolicyReport(
                o.peer() + "_oos", o.evaluated(), o.evaluated().meanDelayHours() / oracleDelay));
      }
    }
    return new Compared(reports, tuned, oos);
  }

  private static void generate(Generate a, PrintStream err) throws IOException {
    Path out = a.out;
    TraceGenerator.Settings s =
        new TraceGenerator.Settings(
            a.sources,
            a.days,
            a.seed,
            a.start != null ? Instant.ofEpochSecond(a.start) : Generate.DEFAULTS.start(),
            a.medianPerDay,
            a.sigma);
    long t0 = System.nanoTime();
    Trace trace = TraceGenerator.generate(s);
    try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      TraceCsv.write(trace, w);
    }
    err.printf(
        Locale.ROOT,
        "[cadence-lab] wrote %d sources, %d changes over %d days to %s in %.1f s%n",
        trace.sources(),
        trace.changes(),
        s.days(),
        out,
        (System.nanoTime() - t0) / 1e9);
  }

  private static Trace readTrace(Path path) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      return TraceCsv.read(in);
    } catch (NoSuchFileException e) {
      throw new UsageException("--trace: no such file: " + path);
    } catch (TraceFormatException e) {
      throw new TraceFormatException(path + " " + e.getMessage());
    }
  }

  private static List<String> policies(String spec) {
    if (spec.equals("all")) {
      return PolicyCatalog.NAMES;
    }
    List<String> out = new ArrayList<>();
    for (String p : spec.split(",")) {
      String name = p.trim();
      if (!PolicyCatalog.NAMES.contains(name) && !PolicyCatalog.OPTIONAL.contains(name)) {
        throw new UsageException(
            "--policies: unknown policy '"
                + name
                + "'; allowed: all, "
                + String.join(", ", PolicyCatalog.NAMES)
                + ", "
                + String.join(", ", PolicyCatalog.OPTIONAL));
      }
      if (!out.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  /** Every report's per-source figures, one line a policy and source. */
  static List<String> perSourceCsv(List<PolicyReport> reports, Trace trace) {
    List<String> lines = new ArrayList<>();
    lines.add("policy,source_id,changes,fetches,delay_sum_h,mean_delay_h,delay_share");
    for (PolicyReport r : reports) {
      RunMetrics.PerSource p = r.metrics().perSource();
      if (p == null) {
        continue;
      }
      double total = 0;
      for (double d : p.delaySumHours()) {
        total += d;
      }
      for (int s = 0; s < p.changes().length; s++) {
        lines.add(
            String.format(
                Locale.ROOT,
                "%s,%s,%d,%d,%.3f,%.4f,%.4f",
                r.policy(),
                trace.ids().get(s),
                p.changes()[s],
                p.fetches()[s],
                p.delaySumHours()[s],
                p.changes()[s] == 0 ? 0.0 : p.delaySumHours()[s] / p.changes()[s],
                total == 0 ? 0.0 : p.delaySumHours()[s] / total));
      }
    }
    return lines;
  }

  private static void printTable(List<PolicyReport> reports, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%-18s %10s %12s %11s %11s %9s %9s %10s %9s%n",
        "policy",
        "fetches",
        "mean_delay_h",
        "p50_delay_h",
        "p95_delay_h",
        "freshness",
        "harmonic",
        "unseen",
        "vs_oracle");
    for (PolicyReport r : reports) {
      var m = r.metrics();
      out.printf(
          Locale.ROOT,
          "%-18s %10d %12.3f %11.3f %11.3f %9.4f %9.4f %10d %9.3f%n",
          r.policy(),
          m.fetches(),
          m.meanDelayHours(),
          m.p50DelayHours(),
          m.p95DelayHours(),
          m.freshness(),
          m.harmonicStaleness(),
          m.unseenChanges(),
          r.delayVsOracle());
    }
  }
}
