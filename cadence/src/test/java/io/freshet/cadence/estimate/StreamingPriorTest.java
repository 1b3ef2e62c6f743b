package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class StreamingPriorTest {

  private static final RateGrid GRID = RateGrid.STANDARD;
  private static final long T0 = 1_767_225_600L; // 2026-01-01T00:00:00Z
  private static final double DAILY = 1.0 / 24;

  /**
   * Sources of two kinds fetched by a stream: {@code dead} never publish and are fetched daily,
   * {@code lively} publish {@code rate} items an hour and are fetched hourly. Every fetch updates
   * the source's posterior and adds it to the prior, as the stats-aggregator does.
   */
  private static StreamingPrior learn(int dead, int lively, double rate, int days) {
    Random rnd = new Random(7);
    StreamingPrior prior = new StreamingPrior(GRID, DAILY, 7 * 24, 5);
    RatePosterior[] sources = new RatePosterior[dead + lively];
    long[] last = new long[sources.length];
    for (int s = 0; s < sources.length; s++) {
      sources[s] = new RatePosterior(GRID, 60 * 24);
      last[s] = T0;
    }
    double[] post = new double[GRID.size()];
    for (long t = T0 + 3600; t <= T0 + days * 86_400L; t += 3600) {
      for (int s = 0; s < sources.length; s++) {
        boolean isDead = s < dead;
        if (isDead && (t - T0) % 86_400 != 0) {
          continue; // the dead are fetched daily
        }
        double hours = (t - last[s]) / 3600.0;
        int items = isDead ? 0 : RatePosteriorTest.poisson(rnd, rate * hours);
        sources[s].observeItems(t, items, last[s]);
        sources[s].posterior(prior.weights(), post);
        prior.add(post, hours, t);
        last[s] = t;
      }
    }
    return prior;
  }

  @Test
  void aPopulationOfDeadSourcesTeachesANewSourceThatSilenceMeansDead() {
    StreamingPrior dead = learn(40, 0, 0, 30);
    RatePosterior newcomer = new RatePosterior(GRID, 60 * 24);
    newcomer.observeItems(T0 + 86_400, 0, T0); // one empty day
    double broad = newcomer.mean(PopulationPrior.initial(GRID, DAILY));
    // against the broad prior one empty day says little; against forty dead peers it says "dead"
    assertThat(newcomer.mean(dead.weights())).isLessThan(broad / 10);
  }

  @Test
  void aLivelyPopulationTeachesANewSourceItsPeersRate() {
    StreamingPrior lively = learn(0, 40, 0.5, 30);
    RatePosterior newcomer = new RatePosterior(GRID, 60 * 24);
    newcomer.observeItems(T0 + 3600, 1, T0);
    assertThat(newcomer.mean(lively.weights())).isCloseTo(0.5, within(0.15));
  }

  @Test
  void eachSourceCountsForItsTimeNotForItsFetches() {
    // 20 dead sources fetched daily, 20 lively fetched hourly: 24 × more fetches of the lively
    StreamingPrior mixed = learn(20, 20, 0.5, 30);
    double[] w = mixed.weights();
    double slow = 0;
    for (int k = 0; k < w.length; k++) {
      if (GRID.rate(k) < 0.01) {
        slow += w[k];
      }
    }
    // half the sources are dead, so about half the prior's mass is below one change in 100 h
    assertThat(slow).isCloseTo(0.5, within(0.1));
  }

  @Test
  void aFewSourcesLeanOnTheBroadPrior() {
    StreamingPrior two = learn(2, 0, 0, 30);
    StreamingPrior forty = learn(40, 0, 0, 30);
    RatePosterior newcomer = new RatePosterior(GRID, 60 * 24);
    newcomer.observeItems(T0 + 86_400, 0, T0);
    assertThat(newcomer.mean(two.weights())).isGreaterThan(3 * newcomer.mean(forty.weights()));
  }

  @Test
  void aRestoredSnapshotIsTheSamePrior() {
    StreamingPrior p = learn(10, 10, 0.2, 10);
    StreamingPrior r = StreamingPrior.restore(GRID, DAILY, 7 * 24, 5, p.snapshot());
    assertThat(r.weights()).containsExactly(p.weights());
    assertThat(r.evidenceHours()).isEqualTo(p.evidenceHours());
    assertThatIllegalArgumentException()
        .isThrownBy(
            () ->
                StreamingPrior.restore(
                    GRID, DAILY, 24, 5, new StreamingPrior.Snapshot(new double[3], 1, T0)))
        .withMessageContaining("3 rates");
  }
}
