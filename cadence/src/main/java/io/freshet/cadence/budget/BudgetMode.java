package io.freshet.cadence.budget;

/** Whether a global budget only caps the fetch rate or is to be spent in full. */
public enum BudgetMode {
  /** Compress only when the wanted rate exceeds the budget (production default). */
  CAP,
  /**
   * Spend the whole budget: adaptive sources are tightened as well as loosened to meet it exactly
   * (what the simulator uses to compare policies at equal cost).
   */
  FILL
}
