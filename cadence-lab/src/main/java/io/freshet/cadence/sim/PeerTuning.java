package io.freshet.cadence.sim;

import io.freshet.cadence.sim.peer.CommaFeedEmpiricalPolicy;
import io.freshet.cadence.sim.peer.MinifluxEntryFrequencyPolicy;
import io.freshet.cadence.sim.peer.NutchAdaptivePolicy;
import io.freshet.cadence.sim.peer.StormCrawlerAdaptivePolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Tuned peers: each peer's own main knobs searched on a small grid, every setting at equal cost
 * (calibrated by {@link EqualCost} to the budget like any policy), the one with the lowest mean
 * delay reported as {@code <peer>_tuned} with its setting. One scale factor is not tuning: the
 * knobs change the shape of a peer's schedule, the factor only its level. The grid includes each
 * peer's defaults, so a tuned peer is never worse than the scaled default on the window it is tuned
 * on.
 */
public final class PeerTuning {

  /** One grid point: its label and factory. */
  public record Variant(String setting, SimPolicy.Factory factory) {}

  private PeerTuning() {}

  /** The grid per peer, in report order. */
  public static Map<String, List<Variant>> grid() {
    Map<String, List<Variant>> g = new LinkedHashMap<>();
    List<Variant> nutch = new ArrayList<>();
    for (double inc : new double[] {0.1, 0.2, 0.4, 0.8}) {
      for (double dec : new double[] {0.2, 0.4, 0.6, 0.8, 0.9}) {
        nutch.add(
            new Variant(
                String.format(Locale.ROOT, "inc=%.1f dec=%.1f", inc, dec),
                s -> new NutchAdaptivePolicy(s.trace().sources(), inc, dec)));
      }
    }
    g.put("nutch", nutch);
    List<Variant> storm = new ArrayList<>();
    for (int min : new int[] {5, 15, 60}) {
      for (int max : new int[] {1440, 4320, 20160}) {
        for (float rate : new float[] {0.25f, 0.5f, 0.75f, 0.9f}) {
          storm.add(
              new Variant(
                  String.format(Locale.ROOT, "min=%dm max=%dm incr=decr=%.2f", min, max, rate),
                  s -> new StormCrawlerAdaptivePolicy(s.trace().sources(), min, max, rate, rate)));
        }
      }
    }
    g.put("stormcrawler", storm);
    List<Variant> miniflux = new ArrayList<>();
    for (double factor : new double[] {0.5, 1, 2, 4, 8}) {
      for (double max : new double[] {60, 240, 1440, 10080}) {
        miniflux.add(
            new Variant(
                String.format(Locale.ROOT, "factor=%.1f max=%.0fm", factor, max),
                s -> new MinifluxEntryFrequencyPolicy(s.trace().sources(), factor, max)));
      }
    }
    g.put("miniflux", miniflux);
    List<Variant> comma = new ArrayList<>();
    for (double maxHours : new double[] {1, 4, 24, 96, 336, 1344}) {
      for (double divisor : new double[] {0.5, 1, 2, 4, 8, 16}) {
        comma.add(
            new Variant(
                String.format(Locale.ROOT, "max=%.0fh divisor=%.1f", maxHours, divisor),
                s -> new CommaFeedEmpiricalPolicy(maxHours * 3600, divisor)));
      }
    }
    g.put("commafeed", comma);
    return g;
  }

  /** A peer's best grid point on a setup. */
  public record Best(String peer, String setting, RunMetrics metrics, int tried) {}

  /** Searches every peer's grid at equal cost on {@code threads} threads; one result per peer. */
  public static List<Best> run(SimSetup setup, int threads, Consumer<String> progress)
      throws InterruptedException {
    Simulator simulator = new Simulator(setup);
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      Map<String, List<Future<RunMetrics>>> futures = new LinkedHashMap<>();
      Map<String, List<Variant>> grid = grid();
      for (Map.Entry<String, List<Variant>> e : grid.entrySet()) {
        List<Future<RunMetrics>> list = new ArrayList<>();
        for (Variant v : e.getValue()) {
          String name = e.getKey() + "[" + v.setting() + "]";
          list.add(
              pool.submit(
                  () -> {
                    double scale = EqualCost.calibrate(simulator, name, v.factory(), line -> {});
                    RunMetrics m = simulator.run(v.factory(), scale, true, Long.MAX_VALUE);
                    progress.accept(
                        String.format(
                            Locale.ROOT,
                            "%s: %d fetches, mean delay %.3f h",
                            name,
                            m.fetches(),
                            m.meanDelayHours()));
                    return m;
                  }));
        }
        futures.put(e.getKey(), list);
      }
      List<Best> best = new ArrayList<>();
      for (Map.Entry<String, List<Future<RunMetrics>>> e : futures.entrySet()) {
        List<Variant> variants = grid.get(e.getKey());
        int bestIndex = -1;
        RunMetrics bestMetrics = null;
        for (int i = 0; i < variants.size(); i++) {
          RunMetrics m = get(e.getValue().get(i));
          if (bestMetrics == null || m.meanDelayHours() < bestMetrics.meanDelayHours()) {
            bestMetrics = m;
            bestIndex = i;
          }
        }
        best.add(
            new Best(e.getKey(), variants.get(bestIndex).setting(), bestMetrics, variants.size()));
      }
      return best;
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * A peer tuned out of sample: the setting that was best on an earlier window ({@code tunedOn}:
   * its figures there) and what that same setting does on the evaluated window ({@code evaluated}),
   * again calibrated to equal cost there.
   */
  public record OutOfSample(
      String peer, String setting, RunMetrics tunedOn, RunMetrics evaluated, int tried) {}

  /**
   * Out-of-sample tuning: every peer's grid is searched on {@code tuneOn} (an earlier window of the
   * same trace, budget and sources) and the best setting of each is run, at equal cost, on {@code
   * evaluateOn}. Unlike {@link #run} the reported figures were never used to choose the setting, so
   * they are what a deployment that tuned on its past would get.
   */
  public static List<OutOfSample> outOfSample(
      SimSetup tuneOn, SimSetup evaluateOn, int threads, Consumer<String> progress)
      throws InterruptedException {
    List<Best> best = run(tuneOn, threads, progress);
    Map<String, List<Variant>> grid = grid();
    Simulator simulator = new Simulator(evaluateOn);
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<RunMetrics>> futures = new ArrayList<>();
      for (Best b : best) {
        Variant v =
            grid.get(b.peer()).stream()
                .filter(x -> x.setting().equals(b.setting()))
                .findFirst()
                .orElseThrow();
        String name = b.peer() + "[" + v.setting() + "] out of sample";
        futures.add(
            pool.submit(
                () -> {
                  double scale = EqualCost.calibrate(simulator, name, v.factory(), line -> {});
                  RunMetrics m = simulator.run(v.factory(), scale, true, Long.MAX_VALUE);
                  progress.accept(
                      String.format(
                          Locale.ROOT,
                          "%s: %d fetches, mean delay %.3f h",
                          name,
                          m.fetches(),
                          m.meanDelayHours()));
                  return m;
                }));
      }
      List<OutOfSample> out = new ArrayList<>();
      for (int i = 0; i < best.size(); i++) {
        Best b = best.get(i);
        out.add(
            new OutOfSample(b.peer(), b.setting(), b.metrics(), get(futures.get(i)), b.tried()));
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }

  private static RunMetrics get(Future<RunMetrics> f) throws InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
