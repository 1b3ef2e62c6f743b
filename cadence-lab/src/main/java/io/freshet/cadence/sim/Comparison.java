package io.freshet.cadence.sim;

import io.freshet.cadence.sim.peer.PolicyCatalog;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs several policies on one setup and lines them up against the oracle.
 *
 * <p>At <b>equal cost</b> every policy's intervals are scaled by its own factor ({@link EqualCost})
 * so that it spends the budget × window fetches; {@code adaptive} and {@code oracle} are given the
 * budget itself and calibrated the same way (their factor comes out near 1). At <b>defaults</b> the
 * peers run unscaled with their published settings, while {@code adaptive} and {@code oracle} still
 * spend the budget. The oracle always runs, as the reference of {@code delay_vs_oracle}. Policies
 * run in parallel on {@code threads} threads.
 */
public final class Comparison {

  private Comparison() {}

  /** Runs {@code names} (in that order) and returns one report each. */
  public static List<PolicyReport> run(
      SimSetup setup, List<String> names, boolean equalCost, int threads, Consumer<String> progress)
      throws InterruptedException {
    Map<String, SimPolicy.Factory> factories = PolicyCatalog.factories();
    Set<String> toRun = new LinkedHashSet<>();
    toRun.add("oracle");
    toRun.addAll(names);
    Simulator simulator = new Simulator(setup);
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<RunMetrics>> futures = new ArrayList<>();
      List<String> order = new ArrayList<>(toRun);
      for (String name : order) {
        SimPolicy.Factory factory = factories.get(name);
        if (factory == null) {
          throw new IllegalArgumentException("unknown policy '" + name + "'");
        }
        boolean calibrate = equalCost || name.equals("oracle") || name.startsWith("adaptive");
        futures.add(
            pool.submit(
                () -> {
                  long started = System.nanoTime();
                  double scale =
                      calibrate ? EqualCost.calibrate(simulator, name, factory, progress) : 1.0;
                  RunMetrics m = simulator.run(factory, scale, true, Long.MAX_VALUE);
                  progress.accept(
                      String.format(
                          "%-15s done: %d fetches, mean delay %.3f h (%.1f s)",
                          name,
                          m.fetches(),
                          m.meanDelayHours(),
                          (System.nanoTime() - started) / 1e9));
                  return m;
                }));
      }
      List<RunMetrics> results = new ArrayList<>();
      for (Future<RunMetrics> f : futures) {
        try {
          results.add(f.get());
        } catch (ExecutionException e) {
          Throwable cause = e.getCause();
          if (cause instanceof RuntimeException re) {
            throw re;
          }
          throw new IllegalStateException(cause);
        }
      }
      double oracleDelay = results.get(order.indexOf("oracle")).meanDelayHours();
      List<PolicyReport> reports = new ArrayList<>();
      for (String name : names) {
        RunMetrics m = results.get(order.indexOf(name));
        reports.add(new PolicyReport(name, m, m.meanDelayHours() / oracleDelay));
      }
      return reports;
    } finally {
      pool.shutdownNow();
    }
  }
}
