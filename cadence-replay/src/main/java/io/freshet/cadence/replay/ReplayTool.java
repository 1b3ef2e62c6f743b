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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The analysts' replay: what would another cadence have cost and gained on the recorded history?
 *
 * <pre>
 * replay --bootstrap HOST:PORT --registry URL --from ISO-INSTANT [--to ISO-INSTANT]
 *        [--configs candidates.json] [--budget-per-hour N] [--observe feed|page]
 *        [--content yes|no] [--out DIR]
 * </pre>
 *
 * Reads {@code freshet.fetch.completed.v1} (and with {@code --content yes} also {@code
 * freshet.content.fetched.v1}) from {@code --from} with a consumer in no group that commits
 * nothing, rebuilds each source's change history ({@link ChangeHistory}), writes it as the
 * simulator's trace ({@code trace.csv}), runs the simulator for the current configuration (adaptive
 * at the budget) and each candidate, prints a table and writes {@code replay.csv} and {@code
 * replay.html} (the chart). The budget defaults to the fetch rate actually observed. Progress on
 * stderr; bad arguments are one line on stderr and exit code 2.
 */
public final class ReplayTool {

  static final String USAGE =
      "usage: replay --bootstrap HOST:PORT --registry URL --from ISO-INSTANT [--to ISO-INSTANT]"
          + " [--configs candidates.json] [--budget-per-hour N] [--observe feed|page]"
          + " [--content yes|no] [--out DIR]";

  private static final Set<String> OPTIONS =
      Set.of(
          "--bootstrap",
          "--registry",
          "--from",
          "--to",
          "--configs",
          "--budget-per-hour",
          "--observe",
          "--content",
          "--out");

  private ReplayTool() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the replay; returns the exit code (0 ok, 2 bad input, 1 failure). */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      String[] rest = args.length > 0 && args[0].equals("replay") ? tail(args) : args;
      if (rest.length == 0 || rest[0].equals("--help")) {
        out.println(USAGE);
        return rest.length == 0 ? 2 : 0;
      }
      replay(parse(rest), out, err);
      return 0;
    } catch (IllegalArgumentException | TraceFormatException e) {
      err.println("replay: error: " + e.getMessage());
      return 2;
    } catch (IOException | RuntimeException e) {
      err.println("replay: failed: " + e);
      return 1;
    }
  }

  private static void replay(Map<String, String> a, PrintStream out, PrintStream err)
      throws IOException {
    Instant from = instant(a, "--from", true);
    Instant to = instant(a, "--to", false);
    if (to != null && !to.isAfter(from)) {
      throw new IllegalArgumentException("--to must be after --from");
    }
    ObserveMode mode =
        switch (a.getOrDefault("--observe", "feed")) {
          case "feed" -> ObserveMode.FEED;
          case "page" -> ObserveMode.PAGE;
          default ->
              throw new IllegalArgumentException(
                  "--observe: expected feed or page, got '" + a.get("--observe") + "'");
        };
    List<Candidate> configured =
        a.containsKey("--configs") ? Candidate.read(Path.of(a.get("--configs"))) : null;
    Double budgetArg = a.containsKey("--budget-per-hour") ? positive(a, "--budget-per-hour") : null;
    Path dir = Path.of(a.getOrDefault("--out", "."));
    Files.createDirectories(dir);
    boolean content =
        switch (a.getOrDefault("--content", "no")) {
          case "yes" -> true;
          case "no" -> false;
          default ->
              throw new IllegalArgumentException(
                  "--content: expected yes or no, got '" + a.get("--content") + "'");
        };
    String bootstrap = require(a, "--bootstrap");
    String registry = require(a, "--registry");

    var topics = FreshetTopics.create(RegistrySettings.of(registry, false));
    var history = new ChangeHistory();
    long t0 = System.nanoTime();
    var reader = new OutcomeReader(bootstrap, err);
    OutcomeReader.Read read =
        reader.read(topics.fetchCompleted(), from, to, (FetchCompleted o) -> history.add(o));
    if (content) {
      OutcomeReader.Read items =
          reader.read(topics.contentFetched(), from, to, (ContentFetched c) -> history.add(c));
      err.printf(
          Locale.ROOT,
          "[replay] read %d content records (%d in the window, %d undecodable)%n",
          items.records(),
          items.used(),
          items.undecodable());
    }
    err.printf(
        Locale.ROOT,
        "[replay] read %d records (%d in the window, %d undecodable) in %.1f s: %d sources changed"
            + " %d times over %d fetches%n",
        read.records(),
        read.used(),
        read.undecodable(),
        (System.nanoTime() - t0) / 1e9,
        history.sources(),
        history.changes(),
        history.fetches());
    if (history.sources() == 0) {
      throw new IllegalArgumentException(
          "no change recorded after --from " + from + " (" + read.used() + " outcomes read)");
    }
    Path tracePath = dir.resolve("trace.csv");
    try (BufferedWriter w = Files.newBufferedWriter(tracePath, StandardCharsets.UTF_8)) {
      history.writeTrace(w);
    }
    err.println("[replay] wrote " + tracePath);
    Trace trace;
    try (BufferedReader r = Files.newBufferedReader(tracePath, StandardCharsets.UTF_8)) {
      trace = TraceCsv.read(r);
    }

    Instant end = to != null ? to : history.last().plusSeconds(1);
    double hours = Duration.between(from, end).toSeconds() / 3600.0;
    if (!(hours > 0)) {
      throw new IllegalArgumentException("the window from " + from + " to " + end + " is empty");
    }
    double budget = budgetArg != null ? budgetArg : Math.max(1.0, history.fetches() / hours);
    err.printf(
        Locale.ROOT,
        "[replay] window %s .. %s (%.2f days), budget %.2f fetches/hour (%s)%n",
        from,
        end,
        hours / 24,
        budget,
        budgetArg != null ? "--budget-per-hour" : "as observed");

    List<Candidate> candidates = new ArrayList<>();
    candidates.add(Candidate.current());
    candidates.addAll(configured != null ? configured : Candidate.defaults(budget));
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
                          from.getEpochSecond(),
                          end.getEpochSecond(),
                          x,
                          SimSetup.FEED_SIZE,
                          true)));
      long started = System.nanoTime();
      RunMetrics m = sim.run(factories.get(c.policy()), c.scale(), true, Long.MAX_VALUE);
      err.printf(
          Locale.ROOT,
          "[replay] %-24s %d fetches, mean delay %.3f h (%.1f s)%n",
          c.name(),
          m.fetches(),
          m.meanDelayHours(),
          (System.nanoTime() - started) / 1e9);
      results.add(new ReplayResult(c, b, hours, m));
    }
    ReplayResult.printTable(results, out);
    Path csv = dir.resolve("replay.csv");
    ReplayResult.writeCsv(results, csv);
    Path html = dir.resolve("replay.html");
    ReplayResult.writeChart(
        results,
        "Freshet replay " + from + " .. " + end + " (" + trace.sources() + " sources)",
        false,
        html);
    err.println("[replay] wrote " + csv + " and " + html);
  }

  static Map<String, String> parse(String[] args) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String k = args[i];
      if (!OPTIONS.contains(k)) {
        throw new IllegalArgumentException("unknown argument '" + k + "'; " + USAGE);
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(k + ": missing value");
      }
      if (m.put(k, args[++i]) != null) {
        throw new IllegalArgumentException(k + ": given twice");
      }
    }
    return m;
  }

  private static String require(Map<String, String> a, String key) {
    String v = a.get(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(key + ": required; " + USAGE);
    }
    return v;
  }

  private static double positive(Map<String, String> a, String key) {
    try {
      double v = Double.parseDouble(a.get(key));
      if (v > 0 && !Double.isInfinite(v)) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        key + ": expected a positive number, got '" + a.get(key) + "'");
  }

  private static Instant instant(Map<String, String> a, String key, boolean required) {
    String v = required ? require(a, key) : a.get(key);
    if (v == null) {
      return null;
    }
    try {
      return Instant.parse(v);
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          key + ": unparsable instant '" + v + "' (ISO-8601, e.g. 2026-11-01T00:00:00Z)");
    }
  }

  private static String[] tail(String[] args) {
    String[] r = new String[args.length - 1];
    System.arraycopy(args, 1, r, 0, r.length);
    return r;
  }
}
