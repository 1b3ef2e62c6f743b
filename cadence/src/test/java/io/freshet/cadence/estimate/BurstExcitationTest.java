package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BurstExcitationTest {

  private static final long T0 = 1_800_000_000L;
  private static final long H = 3600;
  private static final double MEMORY = 60 * 24;

  /** Feeds every change to {@code b} as a fetch right after it would see it; α after each. */
  private static double[] learn(BurstExcitation b, List<Long> changes, double baseRate) {
    double[] alpha = new double[changes.size()];
    for (int i = 0; i < changes.size(); i++) {
      long t = changes.get(i);
      b.observeChange(t, t + 60, baseRate, 0);
      alpha[i] = b.alpha(0);
    }
    return alpha;
  }

  private static List<Long> poisson(double perHour, int n, long seed) {
    Random r = new Random(seed);
    List<Long> out = new ArrayList<>();
    double t = 0;
    for (int i = 0; i < n; i++) {
      t += -Math.log(1 - r.nextDouble()) / perHour;
      out.add(T0 + (long) (t * H));
    }
    return out;
  }

  /** Bursts of {@code size} changes a minute or two apart, Poisson at {@code perHour} bursts. */
  private static List<Long> bursts(double perHour, int size, int count, long seed) {
    Random r = new Random(seed);
    List<Long> out = new ArrayList<>();
    double t = 0;
    for (int i = 0; i < count; i++) {
      t += -Math.log(1 - r.nextDouble()) / perHour;
      long start = T0 + (long) (t * H);
      for (int k = 0; k < size; k++) {
        out.add(start + k * (60 + r.nextInt(60)));
      }
    }
    return out;
  }

  @Test
  void aPoissonSourceIsNotBursty() {
    // one change every 10 h on average, judged against its true rate
    double[] alpha = learn(new BurstExcitation(MEMORY), poisson(0.1, 500, 1), 0.1);
    // the E-step starts at ½ (5 pseudo-changes); within 50 changes it has left it for good
    assertThat(alpha[49]).isLessThan(0.15);
    for (int i = 100; i < alpha.length; i++) {
      assertThat(alpha[i]).isLessThan(0.1);
    }
  }

  @Test
  void aSourceOfBurstsLearnsItsBranchingRatioWithinThreeBursts() {
    // bursts of 10 changes (9 caused by the first: branching ratio 0.9) once a week on average;
    // the base rate (what the posterior mean would say) is the mean rate, 10 a week
    BurstExcitation b = new BurstExcitation(MEMORY);
    double[] alpha = learn(b, bursts(1.0 / 168, 10, 30, 2), 10.0 / 168);
    assertThat(alpha[29]).isGreaterThan(0.5);
    for (int i = 30; i < alpha.length; i++) {
      assertThat(alpha[i]).isGreaterThan(0.5);
    }
    assertThat(alpha[alpha.length - 1]).isBetween(0.8, BurstExcitation.MAX_ALPHA);
  }

  @Test
  void theRateIsRaisedRightAfterABurstAndDecaysWithTau() {
    BurstExcitation b = new BurstExcitation(MEMORY);
    List<Long> seen = bursts(1.0 / 168, 10, 10, 3);
    learn(b, seen, 10.0 / 168);
    double alpha = b.alpha(0);
    assertThat(alpha).isGreaterThan(0.8);
    long last = seen.getLast() + 7 * 24 * H;
    assertThat(b.rate(last, 0)).isLessThan(1e-9);
    // one fetch reads five changes of the last few minutes: they raise the rate as one burst does
    // (by α / τ at most), however many there are — a dump read at once is one burst
    long now = last + 5 * 60;
    for (int k = 0; k < 5; k++) {
      b.observeChange(last + k * 60, now, 10.0 / 168, 0);
    }
    double right = b.rate(now, 0);
    assertThat(right).isGreaterThan(0.8 * b.alpha(0) / BurstExcitation.TAU_HOURS);
    assertThat(right).isLessThanOrEqualTo(b.alpha(0) / BurstExcitation.TAU_HOURS);
    // far above the base rate of 10 a week: the next fetch comes much sooner
    assertThat(right).isGreaterThan(10 * 10.0 / 168);
    assertThat(b.rate(now + (long) (BurstExcitation.TAU_HOURS * H), 0))
        .isCloseTo(right / Math.E, within(right * 1e-6));
    assertThat(b.expected(now, 100, 0)).isCloseTo(right, within(1e-6));
    assertThat(b.rate(now + 48 * H, 0)).isLessThan(1e-9);
    // the next fetch's change raises it again
    b.observeChange(now + 10 * 60, now + 20 * 60, 10.0 / 168, 0);
    assertThat(b.rate(now + 20 * 60, 0)).isGreaterThan(right);
  }

  @Test
  void withoutEvidenceTheSourceFollowsThePopulation() {
    BurstExcitation fresh = new BurstExcitation(MEMORY);
    assertThat(fresh.alpha(0.3)).isEqualTo(0.3);
    assertThat(fresh.rate(T0, 0.3)).isZero();
    BurstExcitation.Population pop = new BurstExcitation.Population();
    assertThat(pop.alpha()).isZero();
    BurstExcitation bursty = new BurstExcitation(MEMORY);
    learn(bursty, bursts(1.0 / 168, 10, 20, 4), 10.0 / 168);
    BurstExcitation calm = new BurstExcitation(MEMORY);
    learn(calm, poisson(0.1, 200, 5), 0.1);
    pop.accumulate(bursty);
    pop.accumulate(calm);
    pop.commit();
    // 200 bursty changes, about 180 caused by bursts, and 200 calm ones: α ≈ 180 / 405
    assertThat(pop.alpha()).isBetween(0.35, 0.5);
  }

  @Test
  void aPageChangeIsSharedBetweenTheBaseAndTheExcitation() {
    BurstExcitation b = new BurstExcitation(24 * 365);
    // a change in each of two hourly intervals right after one another: the second is mostly the
    // excitation's when the base expects little
    assertThat(b.observeInterval(T0, T0 + H, true, 0.01, 0)).isZero();
    double r = b.observeInterval(T0 + H, T0 + 2 * H, true, 0.01, 0);
    assertThat(r).isGreaterThan(0.9);
    // an unchanged interval adds no change
    assertThat(b.observeInterval(T0 + 2 * H, T0 + 3 * H, false, 0.01, 0)).isZero();
    assertThatThrownBy(() -> new BurstExcitation(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
