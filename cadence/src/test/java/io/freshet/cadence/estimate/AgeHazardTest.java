package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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
}
