package io.freshet.cadence.sim;

import java.util.Objects;

/**
 * One simulation's fixed inputs.
 *
 * @param trace when sources really changed
 * @param mode what a fetch sees
 * @param from start of the simulated window, epoch seconds: every source is fetched once then (the
 *     bootstrap fetch, not counted), seeing what was published before
 * @param to end of the window, epoch seconds
 * @param budgetPerHour the global budget, fetches per hour; also the equal-cost target
 * @param feedSize how many latest items a feed lists (20)
 * @param importance whether {@code adaptive} weights sources by importance
 */
public record SimSetup(
    Trace trace,
    ObserveMode mode,
    long from,
    long to,
    double budgetPerHour,
    int feedSize,
    boolean importance) {

  /** The usual feed page size. */
  public static final int FEED_SIZE = 20;

  public SimSetup {
    Objects.requireNonNull(trace, "trace");
    Objects.requireNonNull(mode, "mode");
    if (to <= from) {
      throw new IllegalArgumentException("the window must end after it starts");
    }
    if (!(budgetPerHour > 0)) {
      throw new IllegalArgumentException("the budget must be positive");
    }
    if (feedSize < 1) {
      throw new IllegalArgumentException("a feed lists at least one item");
    }
  }

  /** The window's length in hours. */
  public double hours() {
    return (to - from) / 3600.0;
  }

  /** The equal-cost target: the budget spent over the whole window. */
  public double targetFetches() {
    return budgetPerHour * hours();
  }
}
