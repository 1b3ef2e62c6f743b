package io.freshet.cadence.budget;

import java.time.Duration;

/**
 * The slowest an {@code adaptive} source may be fetched under a budget, so that no source is
 * starved: {@link #MULTIPLE} times the interval an even split of the budget would give every source
 * (sources ÷ budget per hour), never above the spec's own maximum. A source the rate estimate
 * believes dead still costs at most 1 / {@link #MULTIPLE} of an even share, and a change there
 * waits at most that long — what bounds the delay's tail against a fixed interval at the same
 * budget.
 */
public final class StarvationCeiling {

  /**
   * Times the even-split interval. Chosen on the tuning halves of the four real trace families (3,
   * 4, 8 and none tried): 3 costs mean delay on pages and feeds, 8 never binds, 4 bounds the tail
   * without costing mean delay there.
   */
  public static final double MULTIPLE = 4;

  private StarvationCeiling() {}

  /**
   * The ceiling for {@code sources} sources sharing {@code budgetPerHour} fetches an hour, at most
   * {@code max} and at least {@code min}.
   */
  public static Duration interval(int sources, double budgetPerHour, Duration min, Duration max) {
    if (sources <= 0 || !(budgetPerHour > 0)) {
      return max;
    }
    double hours = MULTIPLE * sources / budgetPerHour;
    long minutes = Math.round(Math.min(hours * 60, max.toMinutes()));
    return Duration.ofMinutes(Math.max(minutes, Math.max(1, min.toMinutes())));
  }
}
