package io.freshet.cadence.budget;

/**
 * The outcome of one budget planning round, applied to every source until the next round.
 *
 * @param priceScale multiplies every {@code adaptive} source's base price per fetch (the Lagrange
 *     multiplier relative to its no-budget value); 1 = no pressure, &gt; 1 = fetch less
 * @param compression multiplies every other mode's interval; 1 = no pressure, never below 1
 */
public record BudgetPlan(double priceScale, double compression) {

  /** No budget pressure. */
  public static final BudgetPlan NONE = new BudgetPlan(1.0, 1.0);

  public BudgetPlan {
    if (!(priceScale > 0) || Double.isInfinite(priceScale)) {
      throw new IllegalArgumentException("priceScale must be finite and > 0: " + priceScale);
    }
    if (!(compression >= 1) || Double.isInfinite(compression)) {
      throw new IllegalArgumentException("compression must be finite and ≥ 1: " + compression);
    }
  }
}
