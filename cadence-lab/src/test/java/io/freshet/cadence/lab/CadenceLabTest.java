package io.freshet.cadence.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.sim.PolicyReport;
import io.freshet.cadence.sim.peer.PolicyCatalog;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CadenceLabTest {

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return CadenceLab.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** {@code simulate --trace trace --budget-per-hour budget} followed by {@code more}. */
  private int simulate(Path trace, String budget, String... more) {
    String[] args = new String[5 + more.length];
    args[0] = "simulate";
    args[1] = "--trace";
    args[2] = trace.toString();
    args[3] = "--budget-per-hour";
    args[4] = budget;
    System.arraycopy(more, 0, args, 5, more.length);
    return run(args);
  }

  private String errText() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aMissingTraceFileIsAOneLineErrorWithExitCode2() {
    assertThat(
            run(
                "simulate",
                "--trace",
                dir.resolve("nope.csv").toString(),
                "--budget-per-hour",
                "10"))
        .isEqualTo(2);
    assertThat(errText())
        .isEqualTo(
            "cadence-lab: error: --trace: no such file: "
                + dir.resolve("nope.csv")
                + System.lineSeparator());
  }

  @Test
  void anUnparsableTimestampNamesTheFileAndLine() throws IOException {
    Path trace = dir.resolve("bad.csv");
    Files.writeString(trace, "source_id,timestamp_iso\na,2026-01-05T00:00:00Z\na,not-a-time\n");
    assertThat(run("simulate", "--trace", trace.toString(), "--budget-per-hour", "10"))
        .isEqualTo(2);
    assertThat(errText()).contains(trace + " line 3: unparsable timestamp 'not-a-time'");
    assertThat(errText().lines().filter(l -> l.startsWith("cadence-lab: error")).count())
        .isEqualTo(1);
  }

  @Test
  void anUnknownPolicyIsNamed() throws IOException {
    Path trace = dir.resolve("t.csv");
    Files.writeString(trace, "a,2026-01-05T00:00:00Z\n");
    assertThat(
            run(
                "simulate",
                "--trace",
                trace.toString(),
                "--budget-per-hour",
                "10",
                "--policies",
                "oracle,clairvoyant"))
        .isEqualTo(2);
    assertThat(errText())
        .startsWith(
            "cadence-lab: error: --policies: unknown policy 'clairvoyant'; allowed: all, oracle, adaptive");
  }

  @Test
  void badArgumentsAreNamed() throws IOException {
    Path trace = dir.resolve("t.csv");
    Files.writeString(trace, "a,2026-01-05T00:00:00Z\n");
    assertThat(run("simulate", "--trace", trace.toString())).isEqualTo(2);
    assertThat(errText()).contains("Missing required option: '--budget-per-hour=N'");
    assertThat(run("simulate", "--trace", trace.toString(), "--budget-per-hour", "-3"))
        .isEqualTo(2);
    assertThat(errText()).contains("--budget-per-hour: expected a positive number, got '-3'");
    assertThat(
            run(
                "simulate",
                "--trace",
                trace.toString(),
                "--budget-per-hour",
                "3",
                "--observe",
                "rss"))
        .isEqualTo(2);
    assertThat(errText()).contains("--observe: expected feed or page, got 'rss'");
    assertThat(
            run(
                "simulate",
                "--trace",
                trace.toString(),
                "--budget-per-hour",
                "3",
                "--from",
                "monday"))
        .isEqualTo(2);
    assertThat(errText()).contains("--from: unparsable instant 'monday'");
    assertThat(run("simulate", "--frobnicate")).isEqualTo(2);
    assertThat(errText()).contains("Unknown option: '--frobnicate'");
    assertThat(run("teleport")).isEqualTo(2);
    assertThat(errText()).contains("unknown command 'teleport'; allowed: simulate, generate");
  }

  @Test
  void writesEachPolicysFiguresPerSource() throws IOException {
    Path trace = dir.resolve("trace.csv");
    Path perSource = dir.resolve("per-source.csv");
    assertThat(run("generate", "--out", trace.toString(), "--sources", "12", "--days", "10"))
        .isZero();
    assertThat(
            simulate(
                trace, "4", "--policies", "fixed,adaptive", "--per-source", perSource.toString()))
        .isZero();
    List<String> lines = Files.readAllLines(perSource);
    assertThat(lines.getFirst())
        .isEqualTo("policy,source_id,changes,fetches,delay_sum_h,mean_delay_h,delay_share");
    // every source of the trace for each of fixed and adaptive (the oracle runs but is not asked)
    List<String> fixed = lines.stream().filter(l -> l.startsWith("fixed,")).toList();
    assertThat(fixed).isNotEmpty();
    assertThat(lines.stream().filter(l -> l.startsWith("adaptive,"))).hasSameSizeAs(fixed);
    assertThat(lines).hasSize(1 + 2 * fixed.size());
    double share = 0;
    for (String line : fixed) {
      share += Double.parseDouble(line.split(",")[6]);
    }
    assertThat(share).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-3));
  }

  @Test
  void generatesATraceAndComparesEveryPolicyAtEqualCost() throws IOException {
    Path trace = dir.resolve("trace.csv");
    Path report = dir.resolve("report.csv");
    assertThat(
            run(
                "generate",
                "--out",
                trace.toString(),
                "--sources",
                "60",
                "--days",
                "20",
                "--seed",
                "3"))
        .isZero();
    assertThat(Files.readAllLines(trace).getFirst())
        .isEqualTo("source_id,timestamp_iso,signal_type,event_at");
    assertThat(
            simulate(
                trace,
                "20",
                "--from",
                "2026-01-10T00:00:00Z",
                "--to",
                "2026-01-25T00:00:00Z",
                "--policies",
                "all",
                "--out",
                report.toString()))
        .isZero();
    List<String> lines = Files.readAllLines(report);
    assertThat(lines.getFirst())
        .isEqualTo(PolicyReport.CSV_HEADER)
        .isEqualTo(
            "policy,fetches,mean_delay_h,p50_delay_h,p95_delay_h,freshness,harmonic_staleness,unseen_changes,delay_vs_oracle");
    assertThat(lines.subList(1, lines.size()).stream().map(l -> l.split(",")[0]))
        .containsExactlyElementsOf(PolicyCatalog.NAMES);
    double target = 20 * 15 * 24;
    for (String line : lines.subList(1, lines.size())) {
      assertThat(Double.parseDouble(line.split(",")[1])).isBetween(target * 0.99, target * 1.01);
    }
    assertThat(lines.get(1)).endsWith(",1.0000");
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("oracle", "commafeed");
    assertThat(errText()).contains("calibration run");
  }

  @Test
  void shiftsRunTheComparisonOverWindowsMovedBackAndSummariseTheSpread() throws IOException {
    Path trace = dir.resolve("trace.csv");
    Path report = dir.resolve("spread.csv");
    assertThat(run("generate", "--out", trace.toString(), "--sources", "40", "--days", "20"))
        .isZero();
    assertThat(
            simulate(
                trace,
                "10",
                "--from",
                "2026-01-15T00:00:00Z",
                "--to",
                "2026-01-22T00:00:00Z",
                "--policies",
                "adaptive,commafeed",
                "--shifts",
                "3",
                "--shift-days",
                "2.5",
                "--out",
                report.toString()))
        .isZero();
    List<String> rows = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(rows.getFirst()).startsWith("window_from").contains("adaptive", "commafeed");
    assertThat(rows.stream().map(l -> l.split("\\s+")[0]))
        .containsSubsequence(
            "2026-01-15T00:00:00Z",
            "2026-01-12T12:00:00Z",
            "2026-01-10T00:00:00Z",
            "min",
            "median",
            "max");
    List<String> csv = Files.readAllLines(report);
    assertThat(csv.getFirst()).startsWith("window_from,window_to,policy,");
    // three windows of three policies, each a week long
    assertThat(csv).hasSize(1 + 9);
    assertThat(csv.get(4)).startsWith("2026-01-12T12:00:00Z,2026-01-19T12:00:00Z,oracle,");
    assertThat(errText()).contains("window 3 of 3: 2026-01-10T00:00:00Z .. 2026-01-17T00:00:00Z");
    assertThat(simulate(trace, "10", "--shifts", "0")).isEqualTo(2);
    assertThat(errText()).contains("--shifts: expected a positive");
  }

  @Test
  void atDefaultsRunsThePeersUnscaled() throws IOException {
    Path trace = dir.resolve("trace.csv");
    assertThat(run("generate", "--out", trace.toString(), "--sources", "30", "--days", "10"))
        .isZero();
    assertThat(
            simulate(
                trace,
                "20",
                "--policies",
                "fixed",
                "--at-defaults",
                "--from",
                "2026-01-05T00:00:00Z",
                "--to",
                "2026-01-15T00:00:00Z",
                "--observe",
                "page"))
        .isZero();
    // a fixed hourly interval over ten days: 239 fetches per source after the bootstrap
    String row =
        out.toString(StandardCharsets.UTF_8)
            .lines()
            .filter(l -> l.startsWith("fixed"))
            .findFirst()
            .orElseThrow();
    long fetches = Long.parseLong(row.trim().split("\\s+")[1]);
    // (sources without any change are absent from the CSV, so count per source read)
    long sources = Long.parseLong(errText().replaceAll("(?s).*read (\\d+) sources.*", "$1"));
    assertThat(fetches).isEqualTo(sources * 239);
  }

  @Test
  void tuneWindowTunesThePeersOnAnEarlierWindowAndReportsThemOnTheEvaluatedOne()
      throws IOException {
    Path trace = dir.resolve("trace.csv");
    Path report = dir.resolve("report.csv");
    assertThat(run("generate", "--out", trace.toString(), "--sources", "40", "--days", "20"))
        .isZero();
    assertThat(
            simulate(
                trace,
                "10",
                "--from",
                "2026-01-12T00:00:00Z",
                "--to",
                "2026-01-19T00:00:00Z",
                "--policies",
                "oracle,adaptive",
                "--tune-peers",
                "--tune-window",
                "2026-01-04T00:00:00Z",
                "2026-01-11T00:00:00Z",
                "--out",
                report.toString()))
        .isZero();
    List<String> lines = Files.readAllLines(report);
    List<String> names = lines.subList(1, lines.size()).stream().map(l -> l.split(",")[0]).toList();
    assertThat(names)
        .containsExactly(
            "oracle",
            "adaptive",
            "nutch_tuned",
            "stormcrawler_tuned",
            "miniflux_tuned",
            "commafeed_tuned",
            "nutch_oos",
            "stormcrawler_oos",
            "miniflux_oos",
            "commafeed_oos");
    double target = 10 * 7 * 24;
    for (String peer : List.of("nutch", "stormcrawler", "miniflux", "commafeed")) {
      String[] tuned = row(lines, peer + "_tuned");
      String[] oos = row(lines, peer + "_oos");
      // out of sample is at equal cost on the evaluated window too
      assertThat(Double.parseDouble(oos[1])).isBetween(target * 0.99, target * 1.01);
      // the in-sample best is the best of a grid that holds the out-of-sample setting
      assertThat(Double.parseDouble(oos[2]))
          .isGreaterThanOrEqualTo(Double.parseDouble(tuned[2]) * 0.97);
    }
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text).contains("commafeed_oos: best of 36 on the tuning window");
    assertThat(errText())
        .contains("peers also tuned out of sample on 2026-01-04T00:00:00Z .. 2026-01-11T00:00:00Z");
  }

  @Test
  void aTuneWindowMustEndBeforeTheEvaluatedWindowStarts() throws IOException {
    Path trace = dir.resolve("trace.csv");
    assertThat(run("generate", "--out", trace.toString(), "--sources", "10", "--days", "20"))
        .isZero();
    assertThat(
            simulate(
                trace,
                "10",
                "--from",
                "2026-01-12T00:00:00Z",
                "--tune-window",
                "2026-01-05T00:00:00Z",
                "2026-01-13T00:00:00Z"))
        .isEqualTo(2);
    assertThat(errText()).contains("--tune-window: must end at or before --from");
    assertThat(
            simulate(
                trace,
                "10",
                "--from",
                "2026-01-12T00:00:00Z",
                "--tune-window",
                "2026-01-05T00:00:00Z",
                "2026-01-05T00:00:00Z"))
        .isEqualTo(2);
    assertThat(errText()).contains("--tune-window: its end must be after its start");
    assertThat(simulate(trace, "10", "--tune-window", "2026-01-05T00:00:00Z")).isEqualTo(2);
  }

  private static String[] row(List<String> csv, String policy) {
    return csv.stream()
        .filter(l -> l.startsWith(policy + ","))
        .findFirst()
        .orElseThrow()
        .split(",");
  }
}
