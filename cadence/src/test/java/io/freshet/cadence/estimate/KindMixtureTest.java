package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.estimate.KindMixture.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The mixture on synthetic sources whose kind is known, fetched hourly: the weights move to the
 * true kind within a stated number of fetches. The mean rate is given (as the posterior would give
 * it); the "hazard" model here is a made-up shape (three times the mean in the 3 h after a change,
 * a third of it later), so that it differs from both the Poisson and the bursty model; the rhythm
 * model believes in working hours (Monday–Friday 9–17 UTC: 4 × the mean, others a twentieth).
 */
class KindMixtureTest {

  private static final long HOUR = 3600;
  private static final double MEMORY_HOURS = 60 * 24;

  /** Feeds one source's hourly counts to a mixture; returns the weights after each fetch. */
  private static List<double[]> run(int[] counts, double mean) {
    return run(counts, mean, KindMixtureTest::workingRhythm);
  }

  /**
   * The rhythm model's belief when the source's own hours say nothing yet: the population's, here a
   * working-hours one (so the model differs from the Poisson one on a source without rhythm).
   */
  private static double workingRhythm(int h) {
    return working(h) ? (168 - 128 * 0.05) / 40 : 0.05;
  }

  /**
   * As {@link #run(int[], double)}, the rhythm model expecting {@code mean × rhythm(hour)} in each
   * hour (its shape known, as a profile learned from the source would give it).
   */
  private static List<double[]> run(
      int[] counts, double mean, java.util.function.IntToDoubleFunction rhythm) {
    KindMixture m = new KindMixture(MEMORY_HOURS);
    double[] prior = new KindMixture.Population().weights();
    List<double[]> out = new ArrayList<>();
    long lastChange = Long.MIN_VALUE;
    for (int h = 0; h < counts.length; h++) {
      long from = h * HOUR;
      long now = from + HOUR;
      double shape =
          lastChange == Long.MIN_VALUE ? 1 : (from - lastChange < 3 * HOUR ? 3.0 : 1.0 / 3);
      double[] expected = new double[KindMixture.KINDS];
      expected[Kind.POISSON.ordinal()] = mean;
      expected[Kind.HAZARD.ordinal()] = mean * shape;
      expected[Kind.RHYTHM.ordinal()] = mean * rhythm.applyAsDouble(h);
      expected[Kind.BURSTY.ordinal()] = mean * shape + m.excitation().expected(from, 1);
      expected[Kind.DEAD.ordinal()] = KindMixture.DEAD_RATE;
      m.observeCount(now, expected, counts[h]);
      for (int i = 0; i < counts[h]; i++) {
        m.excitation().add(from + (i + 1) * HOUR / (counts[h] + 1));
        lastChange = from + HOUR / 2;
      }
      out.add(m.weights(prior, new double[KindMixture.KINDS]));
    }
    return out;
  }

  /** The first fetch from which the kind keeps a weight above one half. */
  private static int settledAfter(List<double[]> weights, Kind kind, int from) {
    int settled = -1;
    for (int i = from; i < weights.size(); i++) {
      if (weights.get(i)[kind.ordinal()] > 0.5) {
        if (settled < 0) {
          settled = i - from + 1;
        }
      } else {
        settled = -1;
      }
    }
    return settled;
  }

  private static int poisson(Random r, double mean) {
    double l = Math.exp(-mean);
    int k = 0;
    double p = r.nextDouble();
    while (p > l) {
      p *= r.nextDouble();
      k++;
    }
    return k;
  }

  @Test
  void aPoissonSourceIsToldWithinTwoHundredFetches() {
    Random r = new Random(1);
    int[] counts = new int[600];
    for (int h = 0; h < counts.length; h++) {
      counts[h] = poisson(r, 0.3);
    }
    List<double[]> w = run(counts, 0.3);
    assertThat(settledAfter(w, Kind.POISSON, 0)).isBetween(1, 200);
    assertThat(w.getLast()[Kind.POISSON.ordinal()]).isGreaterThan(0.8);
  }

  @Test
  void aBurstySourceLeadsWithinTwoDays() {
    // bursts of 2 items an hour for 3 hours, once a day at a random hour (no rhythm): a quarter
    // of an item an hour on average
    Random r = new Random(6);
    int[] counts = new int[24 * 30];
    for (int d = 0; d < 30; d++) {
      int at = r.nextInt(21);
      for (int h = 0; h < 3; h++) {
        counts[d * 24 + at + h] = 2;
      }
    }
    List<double[]> w = run(counts, 0.25);
    // the hazard model also expects more changes right after one, so the two stay close at first;
    // the source's own excitation, which grows with the size of its bursts, leads from day two
    for (int i = 48; i < w.size(); i++) {
      double[] at = w.get(i);
      for (Kind k : Kind.values()) {
        assertThat(at[Kind.BURSTY.ordinal()]).isGreaterThanOrEqualTo(at[k.ordinal()]);
      }
    }
    assertThat(w.getLast()[Kind.BURSTY.ordinal()]).isGreaterThan(0.75);
    assertThat(w.getLast()[Kind.POISSON.ordinal()]).isLessThan(1e-6);
  }

  @Test
  void aSourceThatFollowsTheHazardIsTold() {
    Random r = new Random(2);
    int[] counts = new int[2000];
    long sinceChange = 1000;
    for (int h = 0; h < counts.length; h++) {
      double mean = 0.1 * (sinceChange < 3 ? 3.0 : 1.0 / 3);
      counts[h] = poisson(r, mean);
      sinceChange = counts[h] > 0 ? 0 : sinceChange + 1;
    }
    List<double[]> w = run(counts, 0.1);
    assertThat(settledAfter(w, Kind.HAZARD, 0)).isBetween(1, 1000);
  }

  @Test
  void aDeadSourceIsToldWithinTwoDays() {
    List<double[]> w = run(new int[24 * 10], 0.05);
    assertThat(settledAfter(w, Kind.DEAD, 0)).isBetween(1, 48);
  }

  @Test
  void aSourceThatDiesMidRunMovesToDead() {
    Random r = new Random(3);
    int[] counts = new int[24 * 60];
    for (int h = 0; h < 24 * 30; h++) {
      counts[h] = poisson(r, 0.3);
    }
    List<double[]> w = run(counts, 0.3);
    assertThat(w.get(24 * 30 - 1)[Kind.DEAD.ordinal()]).isLessThan(0.01);
    // scores fade over the 60-day memory, so a month of lively history is outweighed within days
    assertThat(settledAfter(w, Kind.DEAD, 24 * 30)).isBetween(1, 24 * 4);
  }

  @Test
  void withoutEvidenceTheWeightsAreThePopulations() {
    KindMixture.Population p = new KindMixture.Population();
    p.accumulate(new double[] {0.6, 0.1, 0.1, 0.1, 0.1});
    p.accumulate(new double[] {0.6, 0.1, 0.1, 0.1, 0.1});
    p.commit();
    double[] w = new KindMixture(MEMORY_HOURS).weights(p.weights(), new double[KindMixture.KINDS]);
    assertThat(w).containsExactly(p.weights(), org.assertj.core.data.Offset.offset(1e-12));
    assertThat(w[0]).isCloseTo((1.2 + 0.2) / 3, org.assertj.core.data.Offset.offset(1e-12));
  }

  @Test
  void aSnapshotRestoresExactly() {
    KindMixture m = new KindMixture(MEMORY_HOURS);
    m.observeCount(HOUR, new double[] {0.1, 0.2, 0.25, 0.3, 1e-6}, 1);
    m.excitation().add(HOUR / 2);
    KindMixture back = KindMixture.restore(MEMORY_HOURS, m.snapshot());
    double[] prior = new KindMixture.Population().weights();
    assertThat(back.weights(prior, new double[KindMixture.KINDS]))
        .containsExactly(m.weights(prior, new double[KindMixture.KINDS]));
    assertThat(back.excitation().at(2 * HOUR)).isEqualTo(m.excitation().at(2 * HOUR));
    assertThat(back.snapshot().version()).isEqualTo(KindMixture.Snapshot.VERSION);
  }

  /** Working hours, Monday to Friday 9–17 UTC, of hour {@code h} of a run starting on a Monday. */
  private static boolean working(int h) {
    int day = (h / 24) % 7;
    int hour = h % 24;
    return day < 5 && hour >= 9 && hour < 17;
  }

  @Test
  void aRhythmicSourceIsToldWithinTwoDays() {
    // changes only in working hours (40 of the week's 168), 0.5 an hour then: 20 a week
    Random r = new Random(4);
    int[] counts = new int[24 * 7 * 8];
    for (int h = 0; h < counts.length; h++) {
      counts[h] = working(h) ? poisson(r, 0.5) : 0;
    }
    double mean = 20.0 / 168;
    // the rhythm the model believes: working hours 168 / 40 × the mean, others a twentieth
    List<double[]> w = run(counts, mean, KindMixtureTest::workingRhythm);
    assertThat(settledAfter(w, Kind.RHYTHM, 0)).isBetween(1, 48);
    assertThat(w.getLast()[Kind.RHYTHM.ordinal()]).isGreaterThan(0.9);
  }

  @Test
  void aPoissonSourceThatTurnsBurstyMovesToBurstyWithinElevenDays() {
    Random r = new Random(5);
    int[] counts = new int[24 * 60];
    for (int h = 0; h < 24 * 30; h++) {
      counts[h] = poisson(r, 0.25);
    }
    // then the same mean rate in bursts: 2 an hour for 3 hours, once a day at a random hour
    for (int d = 30; d < 60; d++) {
      int at = r.nextInt(21);
      for (int h = 0; h < 3; h++) {
        counts[d * 24 + at + h] = 2;
      }
    }
    List<double[]> w = run(counts, 0.25);
    assertThat(w.get(24 * 30 - 1)[Kind.POISSON.ordinal()]).isGreaterThan(0.5);
    assertThat(settledAfter(w, Kind.BURSTY, 24 * 30)).isBetween(1, 24 * 11);
    assertThat(w.getLast()[Kind.BURSTY.ordinal()]).isGreaterThan(0.75);
  }

  @Test
  void aDeadSourceThatWakesUpLeavesDeadWithinADay() {
    // silent for a month, then Poisson at 0.3 an hour (the mean given throughout is the waking
    // one's, as a posterior that has just seen the first items would give it)
    Random r = new Random(7);
    int[] counts = new int[24 * 60];
    for (int h = 24 * 30; h < counts.length; h++) {
      counts[h] = poisson(r, 0.3);
    }
    List<double[]> w = run(counts, 0.3);
    assertThat(w.get(24 * 30 - 1)[Kind.DEAD.ordinal()]).isGreaterThan(0.99);
    // a month of silence is bounded evidence (scores keep at most a gap of 30 nats), so a few
    // items outweigh it: dead falls below 1 % within a day and stays there
    for (int i = 24 * 31; i < w.size(); i++) {
      assertThat(w.get(i)[Kind.DEAD.ordinal()]).isLessThan(0.01);
    }
    assertThat(settledAfter(w, Kind.POISSON, 24 * 30)).isBetween(1, 200);
  }
}
