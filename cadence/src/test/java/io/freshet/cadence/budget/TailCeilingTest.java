package io.freshet.cadence.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class TailCeilingTest {

  @Test
  void aPopulationWhoseIntervalsAreWithinTheEvenSplitIsNotBound() {
    double[] lambda = {1, 0.5, 0.1};
    double[] interval = {2, 5, 9};
    assertThat(TailCeiling.hours(lambda, interval, 3, 10, 168)).isEqualTo(168);
  }

  @Test
  void slowSourcesBelievedDeadCarryNoTailAndLeaveTheCeilingLoose() {
    // one lively source fetched often, many slow ones with (almost) no expected changes
    double[] lambda = new double[101];
    double[] interval = new double[101];
    lambda[0] = 1;
    interval[0] = 1;
    for (int i = 1; i <= 100; i++) {
      lambda[i] = 1e-6;
      interval[i] = 1000;
    }
    assertThat(TailCeiling.hours(lambda, interval, 101, 10, 2000)).isEqualTo(2000);
  }

  @Test
  void theCeilingPutsTheExpectedShareOfChangesWaitingLongerThanTheEvenSplitAtFivePerCent() {
    // half the changes on sources fetched every 40 h while the even split is 10 h
    double[] lambda = {1, 1};
    double[] interval = {2, 40};
    double c = TailCeiling.hours(lambda, interval, 2, 10, 168);
    // share = 1 · (1 − 10 / C) / 2 = 0.05  ⇒  C = 10 / 0.9
    assertThat(c).isCloseTo(10 / 0.9, within(1e-3));
    assertThat(c).isGreaterThanOrEqualTo(10);
  }

  @Test
  void demandsAreReadAtThePlansPrice() {
    Demand.Adaptive fast =
        new Demand.Adaptive(1, 1, Objective.DELAY.priceFor(1.0), Objective.DELAY, 0, 1e9);
    Demand.Adaptive slow =
        new Demand.Adaptive(0.01, 1, Objective.DELAY.priceFor(1.0), Objective.DELAY, 0, 1e9);
    List<Demand> demands = List.of(fast, slow, new Demand.Fixed(3));
    double loose = TailCeiling.hours(demands, BudgetPlan.NONE, 1000, 5000);
    assertThat(loose).isEqualTo(5000);
    double tight = TailCeiling.hours(demands, new BudgetPlan(1e4, 1), 1, 5000);
    assertThat(tight).isLessThan(5000).isGreaterThanOrEqualTo(1);
  }
}
