package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PopulationPriorTest {

  private static final RateGrid GRID = RateGrid.STANDARD;
  private static final long T0 = 1_767_225_600L;

  @Test
  void emLearnsAPopulationOfDeadAndDailySourcesFromThirtyDaysOfFetches() {
    Random rnd = new Random(3);
    List<RatePosterior> members = new ArrayList<>();
    int dead = 0;
    for (int s = 0; s < 300; s++) {
      boolean isDead = s % 3 == 0;
      dead += isDead ? 1 : 0;
      double lambda = isDead ? 0 : 1.0 / 24;
      RatePosterior p = new RatePosterior(GRID, Double.POSITIVE_INFINITY);
      long t = T0;
      for (int d = 0; d < 30; d++) {
        p.observeItems(t + 86_400, RatePosteriorTest.poisson(rnd, lambda * 24), t);
        t += 86_400;
      }
      members.add(p);
    }
    PopulationPrior prior = new PopulationPrior(GRID, 1.0); // starts wrong: hourly
    double[] post = new double[GRID.size()];
    for (int round = 0; round < 50; round++) {
      for (RatePosterior p : members) {
        p.posterior(prior.weights(), post);
        prior.accumulate(post);
      }
      prior.commit();
    }
    double below = 0; // mass on rates under once in 100 days
    double near = 0; // mass within a factor 2 of daily
    for (int k = 0; k < GRID.size(); k++) {
      if (GRID.rate(k) < 1.0 / 2400) {
        below += prior.weights()[k];
      }
      if (GRID.rate(k) > 0.5 / 24 && GRID.rate(k) < 2.0 / 24) {
        near += prior.weights()[k];
      }
    }
    assertThat(below).isCloseTo(dead / 300.0, within(0.05));
    assertThat(near).isCloseTo(1 - dead / 300.0, within(0.07));
    // population mean ≈ ⅔ × 1/24
    assertThat(prior.mean()).isCloseTo(2.0 / 3 / 24, within(0.15 * 2.0 / 3 / 24));
  }

  @Test
  void aNewSourceStartsFromThePopulationAndASmallOneLeansOnItsParent() {
    PopulationPrior parent = new PopulationPrior(GRID, 0.1);
    PopulationPrior small = new PopulationPrior(GRID, 0.1);
    double[] fast = new double[GRID.size()];
    fast[GRID.nearest(1.0)] = 1;
    small.accumulate(fast); // one member changing hourly
    small.commit(parent.weights(), 9); // nine pseudo-members from the parent
    double parentMean = parent.mean();
    assertThat(small.mean())
        .isCloseTo(0.1 * GRID.rate(GRID.nearest(1.0)) + 0.9 * parentMean, within(0.01));
    // a source with no evidence at all has the population's mean
    assertThat(new RatePosterior(GRID, 100).mean(small.weights()))
        .isCloseTo(small.mean(), within(1e-12));
  }

  @Test
  void noRateEverBecomesImpossible() {
    PopulationPrior prior = new PopulationPrior(GRID, 0.1);
    double[] spike = new double[GRID.size()];
    spike[10] = 1;
    for (int i = 0; i < 100; i++) {
      prior.accumulate(spike);
    }
    prior.commit();
    for (double w : prior.weights()) {
      assertThat(w).isGreaterThanOrEqualTo(PopulationPrior.FLOOR * 0.9);
    }
  }
}
