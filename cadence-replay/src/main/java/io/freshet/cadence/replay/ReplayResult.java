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

/** One configuration's simulated figures, and the report's table, CSV and chart. */
record ReplayResult(Candidate candidate, double budgetPerHour, double days, RunMetrics metrics) {

  static final String CSV_HEADER =
      "configuration,policy,scale,budget_per_hour,fetches,fetches_per_day,mean_delay_h,"
          + "p50_delay_h,p95_delay_h,freshness,unseen_changes";

  double fetchesPerDay() {
    return metrics.fetches() / days;
  }

  String toCsv() {
    return String.format(
        Locale.ROOT,
        "%s,%s,%.4f,%.2f,%d,%.2f,%.4f,%.4f,%.4f,%.5f,%d",
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
        metrics.unseenChanges());
  }

  static void printTable(List<ReplayResult> results, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%-24s %-16s %10s %12s %13s %12s %10s%n",
        "configuration",
        "policy",
        "fetches",
        "fetches/day",
        "mean_delay_h",
        "p95_delay_h",
        "freshness");
    for (ReplayResult r : results) {
      out.printf(
          Locale.ROOT,
          "%-24s %-16s %10d %12.1f %13.3f %12.3f %10.4f%n",
          r.candidate.name(),
          r.candidate.policy(),
          r.metrics.fetches(),
          r.fetchesPerDay(),
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
   * A self-contained HTML page with an inline SVG scatter: fetches per day (x) against mean delay
   * (filled dot) and p95 delay (ring) per configuration, so the trade-off is seen at a glance.
   */
  static void writeChart(List<ReplayResult> results, String title, Path file) throws IOException {
    int w = 760;
    int h = 460;
    int left = 70;
    int right = 180;
    int top = 40;
    int bottom = 60;
    double maxX = results.stream().mapToDouble(ReplayResult::fetchesPerDay).max().orElse(1) * 1.1;
    double maxY =
        results.stream().mapToDouble(r -> r.metrics.p95DelayHours()).max().orElse(1) * 1.1;
    maxX = maxX > 0 ? maxX : 1;
    maxY = maxY > 0 ? maxY : 1;
    String[] colours = {
      "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"
    };
    var svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\""
                + " aria-label=\"fetches per day against delay\">%n",
            w,
            h));
    int pw = w - left - right;
    int ph = h - top - bottom;
    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" stroke=\"#999\"/>%n",
            left,
            top,
            pw,
            ph));
    for (int i = 0; i <= 5; i++) {
      double fx = maxX * i / 5;
      double fy = maxY * i / 5;
      double x = left + pw * i / 5.0;
      double y = top + ph - ph * i / 5.0;
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%.0f</text>%n",
              x,
              top,
              x,
              top + ph,
              x,
              top + ph + 16,
              fx));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.2f</text>%n",
              left,
              y,
              left + pw,
              y,
              left - 6,
              y + 4,
              fy));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\">fetches per day</text>%n"
                + "<text x=\"16\" y=\"%d\" font-size=\"13\" text-anchor=\"middle\""
                + " transform=\"rotate(-90 16 %d)\">delay, hours</text>%n",
            left + pw / 2,
            h - 18,
            top + ph / 2,
            top + ph / 2));
    for (int i = 0; i < results.size(); i++) {
      ReplayResult r = results.get(i);
      String c = colours[i % colours.length];
      double x = left + pw * r.fetchesPerDay() / maxX;
      double yMean = top + ph - ph * r.metrics.meanDelayHours() / maxY;
      double yP95 = top + ph - ph * r.metrics.p95DelayHours() / maxY;
      String name = escape(r.candidate.name());
      svg.append(
          String.format(
              Locale.ROOT,
              "<g class=\"configuration\" data-name=\"%s\">"
                  + "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>"
                  + "<circle class=\"mean\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\">"
                  + "<title>%s: %.1f fetches/day, mean delay %.3f h</title></circle>"
                  + "<circle class=\"p95\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"none\" stroke=\"%s\""
                  + " stroke-width=\"2\"><title>%s: p95 delay %.3f h</title></circle>"
                  + "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text></g>%n",
              name,
              x,
              yMean,
              x,
              yP95,
              c,
              x,
              yMean,
              c,
              name,
              r.fetchesPerDay(),
              r.metrics.meanDelayHours(),
              x,
              yP95,
              c,
              name,
              r.metrics.p95DelayHours(),
              left + pw + 14,
              top + 10 + i * 20,
              c,
              left + pw + 30,
              top + 19 + i * 20,
              name));
    }
    svg.append("</svg>\n");
    var rows = new StringBuilder();
    for (ReplayResult r : results) {
      rows.append(
          String.format(
              Locale.ROOT,
              "<tr><td>%s</td><td>%s</td><td>%d</td><td>%.1f</td><td>%.3f</td><td>%.3f</td>"
                  + "<td>%.4f</td></tr>%n",
              escape(r.candidate.name()),
              escape(r.candidate.policy()),
              r.metrics.fetches(),
              r.fetchesPerDay(),
              r.metrics.meanDelayHours(),
              r.metrics.p95DelayHours(),
              r.metrics.freshness()));
    }
    String html =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
            + escape(title)
            + "</title>\n<style>body{font-family:sans-serif;margin:24px}"
            + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;"
            + "text-align:right}td:first-child,td:nth-child(2){text-align:left}</style></head>\n"
            + "<body><h1>"
            + escape(title)
            + "</h1>\n<p>Each configuration: filled dot = mean delay from a change to its"
            + " detection, ring = 95th percentile; further left costs less, lower is fresher.</p>\n"
            + svg
            + "<table><tr><th>configuration</th><th>policy</th><th>fetches</th>"
            + "<th>fetches/day</th><th>mean delay h</th><th>p95 delay h</th><th>freshness</th></tr>\n"
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
