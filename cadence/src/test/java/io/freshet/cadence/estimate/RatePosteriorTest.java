package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RatePosteriorTest {

  private static final RateGrid GRID = RateGrid.STANDARD;
  private static final double[] FLAT = flat();
  private static final long T0 = 1_767_225_600L; // 2026-01-01T00:00:00Z

  private static double[] flat() {
    double[] w = new double[GRID.size()];
    java.util.Arrays.fill(w, 1.0 / w.length);
    return w;
  }

  @Test
  void itemsOfAPoissonSourceGiveItsRateWithinFivePercent() {
    Random rnd = new Random(1);
    double lambda = 0.4; // per hour
    RatePosterior p = new RatePosterior(GRID, Double.POSITIVE_INFINITY);
    long t = T0;
    for (int i = 0; i < 300; i++) {
      long next = t + 3600L * (1 + rnd.nextInt(6)); // fetched every 1–6 h
      p.observeItems(next, poisson(rnd, lambda * (next - t) / 3600.0), t);
      t = next;
    }
    // about 1,000 items: the relative standard error is ~3 %
    assertThat(p.mean(FLAT)).isCloseTo(lambda, within(0.05 * lambda));
  }

  @Test
  void changedUnchangedOverIrregularIntervalsGiveThePoissonRate() {
    Random rnd = new Random(2);
    double lambda = 0.15;
    RatePosterior p = new RatePosterior(GRID, Double.POSITIVE_INFINITY);
    long t = T0;
    for (int i = 0; i < 3000; i++) {
      double hours = 0.5 + 12 * rnd.nextDouble();
      long next = t + Math.round(hours * 3600);
      p.observeChange(next, t, rnd.nextDouble() < 1 - Math.exp(-lambda * hours));
      t = next;
    }
    assertThat(p.mean(FLAT)).isCloseTo(lambda, within(0.1 * lambda));
  }

  @Test
  void aPageThatChangedOnEveryFetchIsNotCappedAtLnTwoNPlusTwoOverT() {
    // Fetched every 2 h, changed every time (truth: 5 per hour). Cho & Garcia-Molina's smoothed
    // estimate saturates at ln(2n + 2)/2 ≈ 2.3/h for n = 50; the posterior under a population
    // that holds such pages follows the population's upper tail instead.
    RatePosterior p = new RatePosterior(GRID, Double.POSITIVE_INFINITY);
    long t = T0;
    for (int i = 0; i < 50; i++) {
      p.observeChange(t + 7200, t, true);
      t += 7200;
    }
    double[] prior = PopulationPrior.initial(GRID, 5.0);
    assertThat(p.mean(prior)).isGreaterThan(3.0);
    // one unchanged 2-hour interval bounds it again: at 5/h it would have changed almost surely
    p.observeChange(t + 7200, t, false);
    assertThat(p.mean(prior)).isLessThan(3.0);
  }

  @Test
  void aDeadSourceIsRecognisedInAFewFetchesInAPopulationWithDeadSources() {
    // a population where a third never changes and the rest change about daily
    double[] prior = new double[GRID.size()];
    prior[0] = 1.0 / 3;
    prior[GRID.nearest(1.0 / 24)] = 2.0 / 3;
    RatePosterior p = new RatePosterior(GRID, Double.POSITIVE_INFINITY);
    long t = T0;
    for (int i = 0; i < 5; i++) { // five unchanged daily fetches
      p.observeChange(t + 86_400, t, false);
      t += 86_400;
    }
    // P(daily source shows 5 days unchanged) = e^-5 → posterior on "daily" ≈ 2e^-5/(1 + 2e^-5)
    double expectedLive = 2 * Math.exp(-5 * 24 * GRID.rate(GRID.nearest(1.0 / 24)));
    expectedLive = expectedLive / (1 + expectedLive);
    assertThat(p.mean(prior))
        .isCloseTo(expectedLive * GRID.rate(GRID.nearest(1.0 / 24)), within(1e-4));
    assertThat(p.mean(prior)).isLessThan(0.001);
  }

  @Test
  void forgettingFollowsASourceThatWakesUp() {
    RatePosterior forgetful = new RatePosterior(GRID, 14 * 24);
    RatePosterior never = new RatePosterior(GRID, Double.POSITIVE_INFINITY);
    long t = T0;
    for (int d = 0; d < 365; d++) { // a year silent
      forgetful.observeItems(t + 86_400, 0, t);
      never.observeItems(t + 86_400, 0, t);
      t += 86_400;
    }
    for (int d = 0; d < 28; d++) { // then two items a day for four weeks
      forgetful.observeItems(t + 86_400, 2, t);
      never.observeItems(t + 86_400, 2, t);
      t += 86_400;
    }
    assertThat(forgetful.mean(FLAT)).isCloseTo(2.0 / 24, within(0.3 * 2.0 / 24));
    assertThat(never.mean(FLAT)).isLessThan(0.15 * 2.0 / 24);
  }

  @Test
  void aRestoredSnapshotGivesThePosteriorOfTheEvidenceItHolds() {
    Random rnd = new Random(4);
    RatePosterior feed = new RatePosterior(GRID, 60 * 24, 365 * 24);
    RatePosterior page = new RatePosterior(GRID, 60 * 24, 365 * 24);
    long t = T0;
    for (int i = 0; i < 200; i++) {
      long next = t + 3600L * (1 + rnd.nextInt(12));
      feed.observeItems(next, poisson(rnd, 0.2 * (next - t) / 3600.0), t);
      page.observeChange(next, t, rnd.nextDouble() < 0.3);
      t = next;
    }
    RatePosterior.Snapshot feedState = feed.snapshot();
    assertThat(feedState.changeLogLik()).isEmpty(); // a feed's evidence is three numbers
    RatePosterior restoredFeed = RatePosterior.restore(GRID, 60 * 24, 365 * 24, feedState);
    RatePosterior restoredPage = RatePosterior.restore(GRID, 60 * 24, 365 * 24, page.snapshot());
    assertThat(restoredFeed.mean(FLAT)).isEqualTo(feed.mean(FLAT));
    assertThat(restoredFeed.hasItems()).isTrue();
    assertThat(restoredPage.hasItems()).isFalse();
    // the page's log-likelihood is kept in single precision: the mean moves by far less than 0.1 %
    assertThat(restoredPage.mean(FLAT)).isCloseTo(page.mean(FLAT), within(1e-3 * page.mean(FLAT)));
    assertThat(restoredPage.observations()).isEqualTo(200);
    // and it goes on learning where the original left off
    feed.observeItems(t + 7200, 3, t);
    restoredFeed.observeItems(t + 7200, 3, t);
    assertThat(restoredFeed.mean(FLAT)).isEqualTo(feed.mean(FLAT));
  }

  @Test
  void itemsAndChangesFadeEachWithTheirOwnMemory() {
    RatePosterior p = new RatePosterior(GRID, 24, Double.POSITIVE_INFINITY);
    RatePosterior itemsOnly = new RatePosterior(GRID, 24);
    RatePosterior changesOnly = new RatePosterior(GRID, Double.POSITIVE_INFINITY);
    long t = T0;
    for (int d = 0; d < 30; d++) {
      p.observeItems(t + 86_400, 5, t);
      itemsOnly.observeItems(t + 86_400, 5, t);
      p.observeChange(t + 86_400, t, d % 2 == 0);
      changesOnly.observeChange(t + 86_400, t, d % 2 == 0);
      t += 86_400;
    }
    double[] both = new double[GRID.size()];
    double[] a = new double[GRID.size()];
    double[] b = new double[GRID.size()];
    p.posterior(FLAT, both);
    itemsOnly.posterior(FLAT, a);
    changesOnly.posterior(FLAT, b);
    // independent evidence multiplies: the posterior under a flat prior is ∝ the product
    double sum = 0;
    for (int k = 0; k < a.length; k++) {
      sum += a[k] * b[k];
    }
    for (int k = 0; k < a.length; k++) {
      assertThat(both[k]).isCloseTo(a[k] * b[k] / sum, within(1e-9));
    }
  }

  @Test
  void aSnapshotOverAnotherGridIsRefused() {
    RatePosterior.Snapshot wrong =
        new RatePosterior.Snapshot(0, 0, Long.MIN_VALUE, new float[7], T0, 1);
    org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
        .isThrownBy(() -> RatePosterior.restore(GRID, 24, 24, wrong))
        .withMessageContaining("7 rates");
  }

  static int poisson(Random rnd, double mean) {
    double l = Math.exp(-mean);
    int k = 0;
    double p = rnd.nextDouble();
    while (p > l) {
      k++;
      p *= rnd.nextDouble();
    }
    return k;
  }
}
