package io.freshet.cadence.sim.peer;

import io.freshet.cadence.budget.BudgetAllocator;
import io.freshet.cadence.budget.Objective;
import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.sim.SimSetup;

/**
 * The oracle: knows each source's true mean change rate over the window (its changes / the window's
 * length) and spends the budget optimally for mean delay — the square-root allocation, fetch rate ∝
 * √λ, priced by bisection so the rates sum to the budget — fetching each source periodically. It
 * knows the average, not the timing: bursts, rhythms and dormancy are as invisible to it as to
 * anyone. Intervals are bounded to [1 min, the window].
 */
public final class OraclePolicy implements SimPolicy {

  private final double[] seconds;

  public OraclePolicy(SimSetup setup) {
    int n = setup.trace().sources();
    double hours = setup.hours();
    double[] lambda = new double[n];
    double[] weight = new double[n];
    double[] minRate = new double[n];
    double[] maxRate = new double[n];
    for (int s = 0; s < n; s++) {
      int changes =
          setup.trace().firstAfter(s, setup.to()) - setup.trace().firstAfter(s, setup.from());
      lambda[s] = changes / hours;
      weight[s] = 1.0;
      minRate[s] = 1.0 / hours;
      maxRate[s] = 60.0;
    }
    double price =
        BudgetAllocator.solvePrice(
            Objective.DELAY, lambda, weight, minRate, maxRate, n, setup.budgetPerHour());
    seconds = new double[n];
    for (int s = 0; s < n; s++) {
      double f =
          Math.max(minRate[s], Math.min(maxRate[s], Objective.DELAY.rate(lambda[s], 1, price)));
      seconds[s] = 3600.0 / f;
    }
  }

  @Override
  public double onFetch(FetchObservation obs) {
    return seconds[obs.source()];
  }
}
