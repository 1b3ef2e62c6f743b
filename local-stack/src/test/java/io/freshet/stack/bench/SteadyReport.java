package io.freshet.stack.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What {@link SteadyBenchmark} prints: each window as it ends, then a summary per regime. */
final class SteadyReport {

  private SteadyReport() {}

  static void print(String regime, int k, SteadyBenchmark.Window w) {
    System.out.printf(
        "%n--- %s, %s window %d: %.1f fetches/s (%d in %.1f s; load %s)%n%s%n",
        regime,
        w.side(),
        k,
        w.rate(),
        w.fetches(),
        w.seconds(),
        PipelineBenchmark.load(),
        w.detail());
    if (!w.stages().isEmpty()) {
      System.out.printf("%-42s %8s %8s %8s %7s%n", "stage (ms)", "median", "p95", "max", "n");
      w.stages()
          .forEach(
              (s, v) ->
                  System.out.printf("%-42s %8.0f %8.0f %8.0f %7.0f%n", s, v[0], v[1], v[2], v[3]));
    }
    double total = w.cpuMs().values().stream().mapToDouble(Double::doubleValue).sum();
    System.out.printf(
        "CPU ms per fetch (OS, utime+stime): %s; all %.3f (%.2f of %d cores busy)%n",
        perFetch(w.cpuMs(), w.fetches()),
        total / Math.max(1, w.fetches()),
        total / 1000 / w.seconds(),
        Runtime.getRuntime().availableProcessors());
    if (w.side().startsWith("pipeline")) {
      System.out.printf(
          "  the stack alone (without %s, %s and %s): %.3f ms per fetch%n",
          ProcessFigures.BENCH,
          ProcessFigures.BENCH_PG,
          BareLoopProcess.PART,
          stackOnly(w.cpuMs()) / Math.max(1, w.fetches()));
    }
    System.out.printf("GC ms in the window: %s%n", join(w.gcMs(), "%.0f"));
    Map<String, Double> mib = new TreeMap<>();
    w.rssKiB().forEach((p, v) -> mib.put(p, v / 1024.0));
    System.out.printf("resident MiB at the end (PSS): %s%n", join(mib, "%.0f"));
  }

  /** CPU ms of the stack's own processes: every part but the benchmark's. */
  static double stackOnly(Map<String, Double> cpuMs) {
    return cpuMs.entrySet().stream()
        .filter(e -> !ProcessFigures.benchPart(e.getKey()))
        .mapToDouble(Map.Entry::getValue)
        .sum();
  }

  static String perFetch(Map<String, Double> cpuMs, long fetches) {
    StringBuilder b = new StringBuilder();
    cpuMs.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .forEach(
            e ->
                b.append(b.isEmpty() ? "" : "; ")
                    .append(e.getKey())
                    .append(String.format(" %.3f", e.getValue() / Math.max(1, fetches))));
    return b.toString();
  }

  private static String join(Map<String, Double> m, String format) {
    StringBuilder b = new StringBuilder();
    m.forEach(
        (k, v) ->
            b.append(b.isEmpty() ? "" : "; ")
                .append(k)
                .append(' ')
                .append(v.isNaN() ? "n/a" : String.format(format, v)));
    return b.toString();
  }

  /** Issue 24's target for a regime's ratio, and its moonshot. */
  static String goal(String regime) {
    return regime.equals("new") ? "goal >= 0.15, moonshot 0.3" : "goal >= 0.3, moonshot 0.5";
  }

  static void summary(Map<String, List<SteadyBenchmark.Window>> all, List<String> recs) {
    System.out.printf("%n=== summary%n");
    for (var e : all.entrySet()) {
      List<SteadyBenchmark.Window> ws = e.getValue();
      if (ws.stream().anyMatch(w -> w.side().startsWith("pipeline "))) {
        variants(e.getKey(), ws);
        continue;
      }
      System.out.printf(
          "regime %s%n%-8s %12s %12s %7s%n", e.getKey(), "window", "pipeline/s", "bare/s", "ratio");
      List<Double> ratios = new ArrayList<>();
      Map<String, Double> pipeCpu = new TreeMap<>();
      Map<String, Double> pipeGc = new TreeMap<>();
      Map<String, Double> bareCpu = new TreeMap<>();
      long pipeFetches = 0;
      long bareFetches = 0;
      List<SteadyBenchmark.Window> pipes =
          ws.stream().filter(w -> w.side().equals("pipeline")).toList();
      List<SteadyBenchmark.Window> bares =
          ws.stream().filter(w -> w.side().equals("bare")).toList();
      for (int i = 0; i < pipes.size(); i++) {
        SteadyBenchmark.Window p = pipes.get(i);
        p.cpuMs().forEach((k, v) -> pipeCpu.merge(k, v, Double::sum));
        p.gcMs().forEach((k, v) -> pipeGc.merge(k, v, Double::sum));
        pipeFetches += p.fetches();
        if (i >= bares.size()) {
          System.out.printf("%-8d %12.1f %12s %7s%n", i + 1, p.rate(), "-", "-");
          continue;
        }
        SteadyBenchmark.Window b = bares.get(i);
        double ratio = p.rate() / b.rate();
        ratios.add(ratio);
        System.out.printf("%-8d %12.1f %12.1f %7.2f%n", i + 1, p.rate(), b.rate(), ratio);
        b.cpuMs().forEach((k, v) -> bareCpu.merge(k, v, Double::sum));
        bareFetches += b.fetches();
      }
      ratios.sort(Double::compare);
      if (!ratios.isEmpty()) {
        System.out.printf(
            "ratio pipeline / bare: %.2f median, %.2f-%.2f (%s)%n",
            ratios.get((ratios.size() - 1) / 2),
            ratios.getFirst(),
            ratios.getLast(),
            goal(e.getKey()));
      }
      System.out.printf(
          "pipeline CPU ms per fetch (every pipeline window): %s%n",
          perFetch(pipeCpu, pipeFetches));
      System.out.printf(
          "pipeline CPU ms per fetch, the stack alone (without the benchmark's parts): %.3f%n",
          stackOnly(pipeCpu) / Math.max(1, pipeFetches));
      Map<String, Double> gcPer = new TreeMap<>();
      final long pf = Math.max(1, pipeFetches);
      pipeGc.forEach((k, v) -> gcPer.put(k, v / pf));
      System.out.printf("pipeline GC ms per fetch: %s%n", join(gcPer, "%.4f"));
      System.out.printf(
          "bare loop CPU ms per fetch (every bare window; its client in a JVM of its own, the twin web"
              + " serving in the benchmark's): %s%n",
          perFetch(bareCpu, bareFetches));
      if (bareFetches > 0 && pipeFetches > 0) {
        double pipeAll = pipeCpu.values().stream().mapToDouble(Double::doubleValue).sum();
        double bareAll = bareCpu.values().stream().mapToDouble(Double::doubleValue).sum();
        // Both sides' CPU per fetch over every process of the machine: what the ratio of rates
        // would be if both kept the same cores busy, whichever side falls short of that here.
        System.out.printf(
            "ratio by CPU per fetch (bare %.3f / pipeline %.3f ms, all processes): %.2f%n",
            bareAll / bareFetches,
            pipeAll / pipeFetches,
            (bareAll / bareFetches) / (pipeAll / pipeFetches));
      }
    }
    recs.forEach(r -> System.out.println("reconciliation, " + r));
  }

  /** A variant run: each side's windows' rates, then its CPU per fetch over all its windows. */
  private static void variants(String regime, List<SteadyBenchmark.Window> ws) {
    System.out.printf("regime %s, settings A (without) and B (with the variant)%n", regime);
    for (String side : List.of("pipeline A", "pipeline B")) {
      Map<String, Double> cpu = new TreeMap<>();
      Map<String, Double> gc = new TreeMap<>();
      long fetches = 0;
      StringBuilder rates = new StringBuilder();
      for (SteadyBenchmark.Window w : ws) {
        if (w.side().equals(side)) {
          w.cpuMs().forEach((k, v) -> cpu.merge(k, v, Double::sum));
          w.gcMs().forEach((k, v) -> gc.merge(k, v, Double::sum));
          fetches += w.fetches();
          rates.append(rates.isEmpty() ? "" : ", ").append(String.format("%.1f", w.rate()));
        }
      }
      double total = cpu.values().stream().mapToDouble(Double::doubleValue).sum();
      System.out.printf(
          "%s: fetches/s by window %s; CPU ms per fetch: all %.3f; %s%n",
          side, rates, total / Math.max(1, fetches), perFetch(cpu, fetches));
    }
  }
}
