package io.freshet.cadence.sim;

import java.util.function.Consumer;

/**
 * Finds the one factor by which a policy's intervals must be multiplied for it to spend a target
 * number of fetches: fetches fall monotonically (up to integer noise) as the factor grows, close to
 * fetches ∝ 1/factor, so a safeguarded secant search in log-log space converges in a handful of
 * runs; bisection takes over whenever the secant step leaves the bracket.
 */
public final class EqualCost {

  /** Accept a factor once fetches are within this relative distance of the target. */
  public static final double TOLERANCE = 0.005;

  private static final int MAX_RUNS = 30;
  private static final double MIN_SCALE = 1e-4;
  private static final double MAX_SCALE = 1e4;

  private EqualCost() {}

  /** The calibrated factor for {@code factory}'s policy; progress lines go to {@code progress}. */
  public static double calibrate(
      Simulator simulator, String name, SimPolicy.Factory factory, Consumer<String> progress) {
    double target = simulator.setup().targetFetches();
    long limit = (long) Math.ceil(target * 20);
    double scale = 1.0;
    double loScale = Double.NaN; // spends more than the target
    double loFetches = Double.NaN;
    double hiScale = Double.NaN; // spends less
    double hiFetches = Double.NaN;
    for (int run = 1; run <= MAX_RUNS; run++) {
      RunMetrics m = simulator.run(factory, scale, false, limit);
      double fetches = Math.max(1, m.fetches());
      progress.accept(
          String.format(
              "%-15s calibration run %2d: scale %.4f -> %d fetches (target %.0f)",
              name, run, scale, m.fetches(), target));
      if (Math.abs(fetches / target - 1) <= TOLERANCE) {
        return scale;
      }
      if (fetches > target) {
        loScale = scale;
        loFetches = fetches;
      } else {
        hiScale = scale;
        hiFetches = fetches;
      }
      double next;
      if (!Double.isNaN(loScale) && !Double.isNaN(hiScale)) {
        double a = Math.log(loScale);
        double b = Math.log(hiScale);
        double fa = Math.log(loFetches);
        double fb = Math.log(hiFetches);
        double x = fa == fb ? 0.5 * (a + b) : a + (fa - Math.log(target)) * (b - a) / (fa - fb);
        boolean inside = x > Math.min(a, b) && x < Math.max(a, b);
        next = Math.exp(inside ? x : 0.5 * (a + b));
        if (Math.abs(b - a) < 1e-6) {
          return hiScale;
        }
      } else {
        double ratio = Math.max(0.01, Math.min(100, fetches / target));
        next = scale * ratio;
      }
      scale = Math.max(MIN_SCALE, Math.min(MAX_SCALE, next));
    }
    progress.accept(name + ": calibration did not converge; using the last factor");
    return scale;
  }
}
