package io.freshet.cadence.lab;

import io.freshet.cadence.sim.Comparison;
import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.PeerTuning;
import io.freshet.cadence.sim.PolicyReport;
import io.freshet.cadence.sim.SimSetup;
import io.freshet.cadence.sim.Trace;
import io.freshet.cadence.sim.TraceCsv;
import io.freshet.cadence.sim.TraceFormatException;
import io.freshet.cadence.sim.TraceGenerator;
import io.freshet.cadence.sim.WindowSpread;
import io.freshet.cadence.sim.peer.PolicyCatalog;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintStream;
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
import java.util.Set;
import java.util.function.Consumer;

/**
 * The cadence lab, {@code java -jar cadence-lab/target/cadence-lab.jar}:
 *
 * <pre>
 * simulate --trace FILE --budget-per-hour N [--from T] [--to T] [--observe feed|page]
 *          [--policies all|name,name] [--out report.csv] [--at-defaults]
 *          [--importance on|off] [--feed-size 20] [--threads N] [--tune-peers]
 *          [--shifts 1 [--shift-days 7]]
 * generate --out FILE [--sources 2000] [--days 74] [--seed 42]
 *          [--start 2026-01-05T00:00:00Z] [--median-per-day 0.3] [--sigma 2.2]
 * </pre>
 *
 * Bad input is reported on one line naming the argument or the trace line, with exit code 2.
 * Progress goes to stderr, the report table to stdout.
 */
public final class CadenceLab {

  private static final String USAGE =
      "usage: cadence-lab simulate --trace FILE --budget-per-hour N [--from T --to T]"
          + " [--observe feed|page] [--policies all|a,b] [--out report.csv] [--at-defaults]"
          + " [--importance on|off] [--feed-size 20] [--threads N] [--tune-peers]"
          + " [--shifts 1 [--shift-days 7]]\n"
          + "       cadence-lab generate --out FILE [--sources 2000] [--days 74] [--seed 42]"
          + " [--start 2026-01-05T00:00:00Z] [--median-per-day 0.3] [--sigma 2.2]";

  private CadenceLab() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the lab; returns the exit code (0 ok, 2 bad input, 1 unexpected failure). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
        out.println(USAGE);
        return args.length == 0 ? 2 : 0;
      }
      switch (args[0]) {
        case "simulate" -> simulate(args, out, err);
        case "generate" -> generate(args, err);
        default ->
            throw new UsageException(
                "unknown command '" + args[0] + "'; allowed: simulate, generate");
      }
      return 0;
    } catch (UsageException | TraceFormatException e) {
      err.println("cadence-lab: error: " + e.getMessage());
      return 2;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("cadence-lab: interrupted");
      return 1;
    } catch (IOException | UncheckedIOException e) {
      err.println("cadence-lab: error: " + e.getMessage());
      return 2;
    }
  }

  private static void simulate(String[] args, PrintStream out, PrintStream err)
      throws IOException, InterruptedException {
    Args a =
        new Args(
            args,
            1,
            Set.of(
                "--trace",
                "--budget-per-hour",
                "--from",
                "--to",
                "--observe",
                "--policies",
                "--out",
                "--importance",
                "--feed-size",
                "--threads",
                "--shifts",
                "--shift-days"),
            Set.of("--at-defaults", "--tune-peers"));
    Path tracePath = Path.of(a.require("--trace"));
    double budget = a.positiveDouble("--budget-per-hour", null);
    ObserveMode mode =
        switch (a.get("--observe", "feed")) {
          case "feed" -> ObserveMode.FEED;
          case "page" -> ObserveMode.PAGE;
          default ->
              throw new UsageException(
                  "--observe: expected feed or page, got '" + a.get("--observe", "") + "'");
        };
    List<String> policies = policies(a.get("--policies", "all"));
    boolean importance =
        switch (a.get("--importance", "on")) {
          case "on" -> true;
          case "off" -> false;
          default ->
              throw new UsageException(
                  "--importance: expected on or off, got '" + a.get("--importance", "") + "'");
        };
    int feedSize = a.positiveInt("--feed-size", String.valueOf(SimSetup.FEED_SIZE));
    int threads =
        a.positiveInt("--threads", String.valueOf(Runtime.getRuntime().availableProcessors()));
    int shifts = a.positiveInt("--shifts", "1");
    double shiftDays = a.positiveDouble("--shift-days", "7");
    Long fromArg = instant(a, "--from");
    Long toArg = instant(a, "--to");

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
    long from = fromArg != null ? fromArg : trace.start();
    long to = toArg != null ? toArg : trace.end() + 1;
    if (to <= from) {
      throw new UsageException("--to must be after --from");
    }
    SimSetup setup = new SimSetup(trace, mode, from, to, budget, feedSize, importance);
    boolean equalCost = !a.flag("--at-defaults");
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
    boolean tune = a.flag("--tune-peers");
    String outPath = a.get("--out", null);
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
        Compared c = compare(moved, withOracle, equalCost, threads, tune, line -> {});
        for (PeerTuning.Best b : c.tuned()) {
          err.printf(Locale.ROOT, "[cadence-lab]   %s_tuned: %s%n", b.peer(), b.setting());
        }
        spread.add(new WindowSpread.Shift(moved.from(), moved.to(), c.reports()));
      }
      WindowSpread.print(spread, out);
      if (outPath != null) {
        Files.write(Path.of(outPath), WindowSpread.csv(spread), StandardCharsets.UTF_8);
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
              line -> err.println("[cadence-lab] " + line));
      printTable(c.reports(), out);
      for (PeerTuning.Best b : c.tuned()) {
        out.printf(Locale.ROOT, "%s_tuned: best of %d: %s%n", b.peer(), b.tried(), b.setting());
      }
      if (outPath != null) {
        List<String> lines = new ArrayList<>();
        lines.add(PolicyReport.CSV_HEADER);
        c.reports().forEach(r -> lines.add(r.toCsv()));
        Files.write(Path.of(outPath), lines, StandardCharsets.UTF_8);
        err.println("[cadence-lab] wrote " + outPath);
      }
    }
    err.printf(Locale.ROOT, "[cadence-lab] total %.1f s%n", (System.nanoTime() - t0) / 1e9);
  }

  /** One window's reports, and the tuned peers' settings when they were tuned. */
  private record Compared(List<PolicyReport> reports, List<PeerTuning.Best> tuned) {}

  /** Every policy at equal cost (or at defaults), then the tuned peers when {@code tune}. */
  private static Compared compare(
      SimSetup setup,
      List<String> policies,
      boolean equalCost,
      int threads,
      boolean tune,
      Consumer<String> progress)
      throws InterruptedException {
    List<PolicyReport> reports = Comparison.run(setup, policies, equalCost, threads, progress);
    if (!tune) {
      return new Compared(reports, List.of());
    }
    reports = new ArrayList<>(reports);
    PolicyReport oracle =
        reports.stream().filter(r -> r.policy().equals("oracle")).findFirst().orElse(null);
    if (oracle == null) {
      oracle = Comparison.run(setup, List.of("oracle"), true, threads, line -> {}).get(0);
    }
    double oracleDelay = oracle.metrics().meanDelayHours();
    long tuneStart = System.nanoTime();
    List<PeerTuning.Best> tuned =
        PeerTuning.run(setup, threads, line -> progress.accept("tune " + line));
    progress.accept(
        String.format(
            Locale.ROOT, "peer tuning took %.1f s", (System.nanoTime() - tuneStart) / 1e9));
    for (PeerTuning.Best b : tuned) {
      reports.add(
          new PolicyReport(
              b.peer() + "_tuned", b.metrics(), b.metrics().meanDelayHours() / oracleDelay));
    }
    return new Compared(reports, tuned);
  }

  private static void generate(String[] args, PrintStream err) throws IOException {
    Args a =
        new Args(
            args,
            1,
            Set.of(
                "--out", "--sources", "--days", "--seed", "--start", "--median-per-day", "--sigma"),
            Set.of());
    TraceGenerator.Settings d = TraceGenerator.Settings.benchmark();
    Path out = Path.of(a.require("--out"));
    long seed;
    try {
      seed = Long.parseLong(a.get("--seed", String.valueOf(d.seed())));
    } catch (NumberFormatException e) {
      throw new UsageException(
          "--seed: expected a whole number, got '" + a.get("--seed", "") + "'");
    }
    Long start = instant(a, "--start");
    double sigma;
    try {
      sigma = Double.parseDouble(a.get("--sigma", String.valueOf(d.sigma())));
      if (!(sigma >= 0)) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new UsageException(
          "--sigma: expected a number ≥ 0, got '" + a.get("--sigma", "") + "'");
    }
    TraceGenerator.Settings s =
        new TraceGenerator.Settings(
            a.positiveInt("--sources", String.valueOf(d.sources())),
            a.positiveInt("--days", String.valueOf(d.days())),
            seed,
            start != null ? Instant.ofEpochSecond(start) : d.start(),
            a.positiveDouble("--median-per-day", String.valueOf(d.medianPerDay())),
            sigma);
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
      if (!PolicyCatalog.NAMES.contains(name)) {
        throw new UsageException(
            "--policies: unknown policy '"
                + name
                + "'; allowed: all, "
                + String.join(", ", PolicyCatalog.NAMES));
      }
      if (!out.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  private static Long instant(Args a, String name) {
    String v = a.get(name, null);
    if (v == null) {
      return null;
    }
    try {
      return Instant.parse(v).getEpochSecond();
    } catch (DateTimeParseException e) {
      throw new UsageException(
          name
              + ": unparsable instant '"
              + v
              + "' (expected ISO-8601 such as 2026-01-05T00:00:00Z)");
    }
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
