package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ChangeRateEstimatorTest {

  @Test
  void choGarciaMolinaRecoversAPoissonRateFromIrregularChecks() {
    Random rnd = new Random(7);
    double lambda = 0.3; // per hour
    int n = 4000;
    double[] t = new double[n];
    boolean[] c = new boolean[n];
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      t[i] = 0.5 + rnd.nextDouble() * 8; // irregular intervals, 0.5–8.5 h
      c[i] = rnd.nextDouble() < 1 - Math.exp(-lambda * t[i]);
      w[i] = 1;
    }
    double est = ChangeRateEstimator.choGarciaMolina(t, c, w, n, 1.0, -1);
    assertThat(est).isCloseTo(lambda, within(0.03));
  }

  @Test
  void smoothingKeepsAlwaysAndNeverChangedFinite() {
    double[] t = {2, 2, 2, 2};
    double[] w = {1, 1, 1, 1};
    double always =
        ChangeRateEstimator.choGarciaMolina(
            t, new boolean[] {true, true, true, true}, w, 4, 0.1, -1);
    double never = ChangeRateEstimator.choGarciaMolina(t, new boolean[4], w, 4, 0.1, -1);
    // Cho & Garcia-Molina's regular-interval closed forms: ln(2n + 2)/I and −ln((n + 0.5)/(n +
    // 1))/I
    assertThat(always).isCloseTo(Math.log(10) / 2, within(1e-6));
    assertThat(never).isCloseTo(-Math.log(4.5 / 5) / 2, within(1e-6));
  }

  @Test
  void gammaPosteriorTendsToCountOverExposure() {
    assertThat(ChangeRateEstimator.gammaPosterior(1000, 500, 1)).isCloseTo(2.0, within(0.01));
    assertThat(ChangeRateEstimator.gammaPosterior(0, 0, 0.25)).isEqualTo(0.25);
  }

  @Test
  void trackerForgetsOldEvidence() {
    RateTracker tracker = new RateTracker(24 * 14, 1.0);
    long t = 0;
    for (int i = 0; i < 24 * 28; i++) { // four weeks at 2 items per hour
      tracker.observeItems(t + 3600, 2, t);
      t += 3600;
    }
    assertThat(tracker.rate(t)).isCloseTo(2.0, within(0.05));
    for (int i = 0; i < 24 * 28; i++) { // then four silent weeks
      tracker.observeItems(t + 3600, 0, t);
      t += 3600;
    }
    assertThat(tracker.rate(t)).isLessThan(0.3);
    for (int i = 0; i < 24 * 3; i++) { // wakes up: three days at 5 per hour
      tracker.observeItems(t + 3600, 5, t);
      t += 3600;
    }
    assertThat(tracker.rate(t)).isGreaterThan(0.8);
  }

  @Test
  void trackerUsesChangedNotChangedWithoutItems() {
    RateTracker tracker = new RateTracker(24 * 14, 1.0);
    Random rnd = new Random(3);
    long t = 0;
    for (int i = 0; i < 32; i++) {
      long dt = 3600L * (1 + rnd.nextInt(4));
      tracker.observeChange(t + dt, t, i % 4 == 0);
      t += dt;
    }
    assertThat(tracker.hasEvidence()).isTrue();
    assertThat(tracker.rate(t)).isBetween(0.02, 0.3);
  }
}
