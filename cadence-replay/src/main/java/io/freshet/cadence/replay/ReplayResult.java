package io.freshet.cadence.replay;

import io.freshet.cadence.sim.RunMetrics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One configuration's simulated figures, and the report's table, CSV and chart. Hours are those of
 * the simulated timeline (real hours when the recording was not scaled).
 *
 * @param hours the simulated window's length
 */
record ReplayResult(Candidate candidate, double budgetPerHour, double hours, RunMetrics metrics) {

  static final String CSV_HEADER =
      "configuration,policy,scale,budget_per_hour,fetches,fetches_per_day,mean_delay_h,"
          + "p50_delay_h,p95_delay_h,freshness,unseen_changes,fetches_per_hour";

  double fetchesPerHour() {
    return metrics.fetches() / hours;
  }

  double fetchesPerDay() {
    return fetchesPerHour() * 24;
  }

  String toCsv() {
    return String.format(
        Locale.ROOT,
        "%s,%s,%.4f,%.2f,%d,%.2f,%.4f,%.4f,%.4f,%.5f,%d,%.4f",
        candidate.name(),
        candidate.policy(),
        candidate.scale(),
        budgetPerHour,
        metrics.fetches(),
        fetchesPerDay(),
        metrics.meanDelayHours(),
        metrics.p50DelayHours(),
        metrics.p95DelayHours(),
        metrics.freshness(),
        metrics.unseenChanges(),
        fetchesPerHour());
  }

  /** The table: one row per configuration, names as wide as the longest. */
  static void printTable(List<ReplayResult> results, PrintStream out) {
    int w =
        Math.max(13, results.stream().mapToInt(r -> r.candidate.name().length()).max().orElse(0));
    int pw =
        Math.max(6, results.stream().mapToInt(r -> r.candidate.policy().length()).max().orElse(0));
    out.printf(
        Locale.ROOT,
        "%-" + w + "s  %-" + pw + "s %9s %11s %13s %12s %10s%n",
        "configuration",
        "policy",
        "fetches",
        "fetches/h",
        "mean_delay_h",
        "p95_delay_h",
        "freshness");
    for (ReplayResult r : results) {
      out.printf(
          Locale.ROOT,
          "%-" + w + "s  %-" + pw + "s %9d %11.2f %13.3f %12.3f %10.4f%n",
          r.candidate.name(),
          r.candidate.policy(),
          r.metrics.fetches(),
          r.fetchesPerHour(),
          r.metrics.meanDelayHours(),
          r.metrics.p95DelayHours(),
          r.metrics.freshness());
    }
  }

  static void writeCsv(List<ReplayResult> results, Path file) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add(CSV_HEADER);
    results.forEach(r -> lines.add(r.toCsv()));
    Files.write(file, lines, StandardCharsets.UTF_8);
  }

  /**
   * A self-contained HTML page (no script, no external resource): the trade-off chart ({@link
   * TradeOffChart}) and the table.
   *
   * @param simulated whether hours are simulated ones (a scaled recording), said on the axes
   */
  static void writeChart(List<ReplayResult> results, String title, boolean simulated, Path file)
      throws IOException {
    String svg = TradeOffChart.svg(results, simulated);
    var rows = new StringBuilder();
    for (ReplayResult r : results) {
      rows.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%s</td><td>%d</td><td>%.2f</td><td>%.3f</td><td>%.3f</td>"
                  + "<td>%.4f</td></tr>%n",
              escape(r.candidate.name()),
              escape(r.candidate.policy()),
              r.metrics.fetches(),
              r.fetchesPerHour(),
              r.metrics.meanDelayHours(),
              r.metrics.p95DelayHours(),
              r.metrics.freshness()));
    }
    String unit = simulated ? "simulated hour" : "hour";
    String html =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
            + escape(title)
            + "</title>\n<style>body{font-family:sans-serif;margin:24px}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;"
            + "text-align:right}td:first-child,td:nth-child(2){text-align:left}</style></head>\n"
            + "<body><h1>"
            + escape(title)
            + "</h1>\n<p>One point per configuration: fetches per "
            + unit
            + " it spent (x) against the mean delay from a change to the fetch that saw it (y)."
            + " Further left costs less, lower is fresher.</p>\n"
            + svg
            + "<table><tr><th>configuration</th><th>policy</th><th>fetches</th>"
            + "<th>fetches per "
            + unit
            + "</th><th>mean delay (h)</th><th>p95 delay (h)</th><th>freshness</th></tr>\n"
            + rows
            + "</table></body></html>\n";
    Files.writeString(file, html, StandardCharsets.UTF_8);
  }

  static String escape(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
