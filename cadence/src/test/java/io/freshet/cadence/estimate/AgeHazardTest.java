package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.Random;
import org.junit.jupiter.api.Test;

class AgeHazardTest {

  private static final long T0 = 1_767_225_600L;

  /** Feeds a hazard with a year of a source's item times, as a feed's fetches would. */
  private static AgeHazard learn(long[] items, double meanRate) {
    AgeHazard h = new AgeHazard(Double.POSITIVE_INFINITY);
    long last = items[0];
    for (int i = 1; i < items.length; i++) {
      h.observe(items[i], meanRate, 0, (items[i] - last) / 3600.0, 1, true);
      last = items[i];
    }
    h.refresh();
    return h;
  }

  @Test
  void aPoissonSourceHasNoMemory_everyMultiplierNearOne() {
    Random rnd = new Random(5);
    double lambda = 0.2;
    long[] items = new long[20_000];
    long t = T0;
    for (int i = 0; i < items.length; i++) {
      t += Math.round(-Math.log(1 - rnd.nextDouble()) / lambda * 3600);
      items[i] = t;
    }
    AgeHazard h = learn(items, lambda);
    for (double age : new double[] {0.5, 2, 4, 8, 16, 30}) {
      assertThat(h.multiplier(age)).as("age %s h", age).isCloseTo(1.0, within(0.15));
    }
  }

  @Test
  void aBurstySourceTightensRightAfterAChangeAndRelaxesAfterAQuietSpell() {
    // after each change: half the time a follow-up within ~20 min (an edit), else a quiet gap of
    // ~100 h. Mean gap ≈ 50 h; the true hazard at ages < 1 h is far above the mean rate, beyond
    // 2 days below it.
    Random rnd = new Random(6);
    long[] items = new long[6000];
    long t = T0;
    for (int i = 0; i < items.length; i++) {
      double gapHours =
          rnd.nextBoolean()
              ? -Math.log(1 - rnd.nextDouble()) / 3
              : -Math.log(1 - rnd.nextDouble()) * 100;
      t += Math.max(1, Math.round(gapHours * 3600));
      items[i] = t;
    }
    double mean = (items.length - 1) / ((items[items.length - 1] - items[0]) / 3600.0);
    AgeHazard h = learn(items, mean);
    // truth at age ~0.5 h: ≈ 0.5 × 3 e^{-1.5} / (P(alive)) / mean rate ≫ 10
    assertThat(h.multiplier(0.5)).isGreaterThan(10);
    assertThat(h.multiplier(60)).isBetween(0.3, 0.9);
  }

  @Test
  void pageIntervalsCountAtMostOneChangeAndExpectTheChanceOfOne() {
    AgeHazard h = new AgeHazard(Double.POSITIVE_INFINITY);
    // mean rate 1/h, 2-hour intervals that always changed: expectation 1 − e^{−2} per interval,
    // so the all-changed evidence says "a little more than the mean", not 1/(2 × 1) = ½
    for (int i = 0; i < 1000; i++) {
      h.observe(T0 + i * 7200L, 1.0, 30, 2, 1, false);
      h.observe(T0 + i * 7200L, 1.0, 0.5, 2, 0, false);
    }
    h.refresh();
    assertThat(h.multiplier(31)).isGreaterThan(1.5);
    assertThat(h.multiplier(1.5)).isLessThan(0.5);
  }

  /**
   * Two populations in one hazard: slow bursty sources (after each change, half the time a
   * follow-up within hours — gap ~ Exp(mean 4 h) — else a long silence, Exp(mean 1000 h); mean rate
   * 1/502 per hour) and fast Poisson ones (0.5 per hour). Each stratum's curve converges to its own
   * truth, which for the bursty sources is a multiplier near 60 right after a change; the pooled
   * curve, dominated by the fast sources' many changes, would put it far lower.
   */
  @Test
  void eachRateStratumLearnsItsOwnBurstCurve() {
    Random rnd = new Random(7);
    AgeHazard h = new AgeHazard(Double.POSITIVE_INFINITY, AgeHazard.RATE_STRATA);
    double slowMean = 1 / 502.0;
    long t = T0;
    for (int i = 0; i < 100_000; i++) {
      double mean = rnd.nextBoolean() ? 4 : 1000;
      double gap = -Math.log(1 - rnd.nextDouble()) * mean;
      h.observe(t, slowMean, 0, gap, 1, true);
    }
    double fast = 0.5;
    for (int i = 0; i < 100_000; i++) {
      h.observe(t, fast, 0, -Math.log(1 - rnd.nextDouble()) / fast, 1, true);
    }
    h.refresh();

    double[] edges = AgeHazard.EDGES_HOURS;
    for (int b : new int[] {0, 1, 3, 5, 9, 11}) { // [0,1), [1,3), [6,12), [24,48), [336,720), ...
      double lo = edges[b];
      double hi = edges[b + 1];
      double truth = (survival(lo) - survival(hi)) / (slowMean * exposure(lo, hi));
      assertThat(h.multiplier((lo + hi) / 2, slowMean))
          .as("slow stratum, ages [%s, %s) h: truth %.3f", lo, hi, truth)
          .isCloseTo(truth, withinPercentage(12));
    }
    for (double age : new double[] {0.5, 2, 4}) { // where fast sources are watched at all
      assertThat(h.multiplier(age, fast)).as("fast stratum, %s h", age).isCloseTo(1, within(0.1));
    }
    assertThat(h.multiplier(0.5, slowMean)).isGreaterThan(45);
    assertThat(h.multiplier(0.5)).as("pooled").isLessThan(h.multiplier(0.5, slowMean) / 5);
    assertThat(h.curve(slowMean)).hasSize(edges.length - 1);
  }

  /** P(gap ≥ a) of the slow bursty sources. */
  private static double survival(double a) {
    return 0.5 * Math.exp(-a / 4) + 0.5 * Math.exp(-a / 1000);
  }

  /** ∫ survival over [lo, hi): the time a gap spends at those ages, on average. */
  private static double exposure(double lo, double hi) {
    return 0.5 * 4 * (Math.exp(-lo / 4) - Math.exp(-hi / 4))
        + 0.5 * 1000 * (Math.exp(-lo / 1000) - Math.exp(-hi / 1000));
  }

  @Test
  void aRestoredSnapshotIsTheSameHazardAndLearnsOnAlike() {
    AgeHazard h = new AgeHazard(60 * 24, AgeHazard.RATE_STRATA);
    long t = 1_767_225_600L;
    for (int i = 0; i < 200; i++) {
      h.observe(t + i * 3600L, 0.1, i % 7, 1.0, i % 3 == 0 ? 1 : 0, i % 2 == 0);
    }
    h.refresh();
    AgeHazard r = AgeHazard.restore(60 * 24, AgeHazard.RATE_STRATA, h.snapshot());
    for (double age : new double[] {0.5, 2, 30, 400, 5000}) {
      org.assertj.core.api.Assertions.assertThat(r.multiplier(age, 0.1))
          .isEqualTo(h.multiplier(age, 0.1));
    }
    h.observe(t + 300 * 3600L, 0.1, 0.2, 0.5, 1, true);
    r.observe(t + 300 * 3600L, 0.1, 0.2, 0.5, 1, true);
    h.refresh();
    r.refresh();
    org.assertj.core.api.Assertions.assertThat(r.curve(0.1)).containsExactly(h.curve(0.1));
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> AgeHazard.restore(60 * 24, new double[0], h.snapshot()))
        .withMessageContaining("rows");
  }

  @Test
  void putArraysIsTheSnapshotsArraysInOrder() {
    AgeHazard h = new AgeHazard(60 * 24, AgeHazard.RATE_STRATA);
    long t = 1_767_225_600L;
    for (int i = 0; i < 50; i++) {
      h.observe(t + i * 3600L, 0.05, i % 5, 2.0, i % 4 == 0 ? 1 : 0, true);
    }
    h.refresh();
    java.nio.DoubleBuffer out = java.nio.DoubleBuffer.allocate(3 * h.rows() * AgeHazard.bins());
    h.putArrays(out);
    AgeHazard.Snapshot s = h.snapshot();
    java.util.List<Double> expected = new java.util.ArrayList<>();
    for (double[][] a : new double[][][] {s.observed(), s.expected(), s.multiplier()}) {
      for (double[] row : a) {
        for (double v : row) {
          expected.add(v);
        }
      }
    }
    org.assertj.core.api.Assertions.assertThat(out.position()).isEqualTo(expected.size());
    org.assertj.core.api.Assertions.assertThat(out.array())
        .containsExactly(expected.stream().mapToDouble(Double::doubleValue).toArray());
    org.assertj.core.api.Assertions.assertThat(h.updatedAt()).isEqualTo(s.updatedAt());
    org.assertj.core.api.Assertions.assertThat(h.rows()).isEqualTo(s.observed().length);
  }
}
