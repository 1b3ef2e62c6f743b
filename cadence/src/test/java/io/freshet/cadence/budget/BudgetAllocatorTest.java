package io.freshet.cadence.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetAllocatorTest {

  private static Demand.Adaptive adaptive(double lambda) {
    return new Demand.Adaptive(lambda, 1.0, Objective.DELAY.priceFor(1.0), Objective.DELAY, 0, 1e9);
  }

  private static double sum(List<Demand.Adaptive> ds, double scale) {
    return ds.stream().mapToDouble(d -> d.rateAt(scale)).sum();
  }

  @Test
  void noBudgetMeansNoPressure() {
    assertThat(BudgetAllocator.plan(List.of(adaptive(1)), 0, BudgetMode.CAP))
        .isEqualTo(BudgetPlan.NONE);
  }

  @Test
  void capLeavesSourcesAloneUnderTheBudget() {
    assertThat(BudgetAllocator.plan(List.of(adaptive(1), new Demand.Fixed(1)), 100, BudgetMode.CAP))
        .isEqualTo(BudgetPlan.NONE);
  }

  @Test
  void adaptiveSourcesSpendExactlyTheirShareAtTheSolvedPrice() {
    List<Demand.Adaptive> ds = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      ds.add(adaptive(Math.pow(10, -3 + 5 * i / 99.0)));
    }
    double wanted = sum(ds, 1.0);
    BudgetPlan plan = BudgetAllocator.plan(ds, wanted / 3, BudgetMode.CAP);
    assertThat(sum(ds, plan.priceScale())).isCloseTo(wanted / 3, within(1e-6 * wanted));
    // square-root rule: rate ∝ √λ, so the price scale is 9 for a third of the rate
    assertThat(plan.priceScale()).isCloseTo(9.0, within(1e-6));
  }

  @Test
  void fillAlsoExpandsToSpendTheWholeBudget() {
    List<Demand.Adaptive> ds = List.of(adaptive(1), adaptive(4));
    BudgetPlan plan = BudgetAllocator.plan(ds, 30, BudgetMode.FILL);
    assertThat(sum(ds, plan.priceScale())).isCloseTo(30, within(1e-6));
    assertThat(plan.priceScale()).isLessThan(1.0);
  }

  @Test
  void mixedPopulationsShareTheCompressionProportionally() {
    List<Demand> ds = List.of(new Demand.Fixed(6), adaptive(4)); // adaptive wants 2/h
    BudgetPlan plan = BudgetAllocator.plan(ds, 4, BudgetMode.CAP);
    assertThat(plan.compression()).isCloseTo(2.0, within(1e-12));
    assertThat(((Demand.Adaptive) ds.get(1)).rateAt(plan.priceScale()))
        .isCloseTo(1.0, within(1e-6));
  }

  @Test
  void squareRootAllocationBeatsUniformOnMeanDelay() {
    double[] lambda = {0.01, 0.1, 1, 10};
    double budget = 4;
    double[] w = {1, 1, 1, 1};
    double[] lo = {0, 0, 0, 0};
    double[] hi = {1e9, 1e9, 1e9, 1e9};
    double price = BudgetAllocator.solvePrice(Objective.DELAY, lambda, w, lo, hi, 4, budget);
    double optimal = 0;
    double uniform = 0;
    double changes = 0;
    double spent = 0;
    for (int i = 0; i < 4; i++) {
      double f = Objective.DELAY.rate(lambda[i], 1, price);
      spent += f;
      optimal += lambda[i] / (2 * f);
      uniform += lambda[i] / (2 * (budget / 4));
      changes += lambda[i];
    }
    assertThat(spent).isCloseTo(budget, within(1e-5));
    assertThat(optimal / changes).isLessThan(uniform / changes);
  }

  @Test
  void clampsBoundTheSolution() {
    double[] lambda = {1, 1};
    double price =
        BudgetAllocator.solvePrice(
            Objective.DELAY,
            lambda,
            new double[] {1, 1},
            new double[] {0, 0},
            new double[] {0.5, 0.5},
            2,
            10);
    assertThat(Math.min(0.5, Objective.DELAY.rate(1, 1, price))).isEqualTo(0.5);
  }

  @Test
  void harmonicRateSolvesItsQuadratic() {
    double lambda = 3;
    double w = 2;
    double m = 0.7;
    double f = Objective.HARMONIC.rate(lambda, w, m);
    assertThat(f * f + lambda * f - w * lambda / m).isCloseTo(0, within(1e-9));
    assertThat(Objective.HARMONIC.rate(1, 1, Objective.HARMONIC.priceFor(2.0)))
        .isCloseTo(2.0, within(1e-9));
  }

  @Test
  void proportionalCompressionIsWantedOverBudgetButNeverBelowOne() {
    assertThat(BudgetAllocator.proportionalCompression(300, 100)).isEqualTo(3.0);
    assertThat(BudgetAllocator.proportionalCompression(50, 100)).isEqualTo(1.0);
  }
}
