package io.freshet.cadence.sim;

/**
 * A fetch-scheduling policy under simulation. It learns only from {@link FetchObservation}s — never
 * from the trace — except the oracle, whose point is to know.
 */
public interface SimPolicy {

  /**
   * A fetch of {@code obs.source()} happened; returns how many seconds until its next fetch (the
   * simulator scales it by the equal-cost factor).
   */
  double onFetch(FetchObservation obs);

  /**
   * Told once, before the first {@link #onFetch}, the equal-cost factor the simulator multiplies
   * every returned interval by. A policy that compares real elapsed time with its own intervals, or
   * adds a real-time offset to them, needs it to stay faithful under scaling; others ignore it.
   */
  default void scaledBy(double scale) {}

  /** How often {@link #plan} runs (seconds), 0 for never: for budget-coupled policies. */
  default long planPeriodSeconds() {
    return 0;
  }

  /** Periodic global re-planning (the scheduler recomputing the budget multiplier). */
  default void plan(long now) {}

  /** Creates a fresh policy instance per run (policies hold per-source state). */
  @FunctionalInterface
  interface Factory {
    SimPolicy create(SimSetup setup);
  }
}
