package io.freshet.cadence.estimate;

/**
 * When in the week a source (or a population) publishes: item counts and observed time per UTC hour
 * of the week. Each item is spread over its hour (½) and the two neighbouring hours (¼ each)
 * because publication "around nine" spills over. The rate multiplier of an hour is its items per
 * observed hour over the overall items per observed hour, shrunk toward a parent's multiplier (the
 * population's) with {@code kappa} pseudo-items spread over the week — so a sparse source follows
 * its population, a prolific one its own habits, and an hour never observed yet says what the
 * parent says (counting items without the time they were observed over makes the hours just watched
 * look hot and the rest of the week dead). Evidence fades with {@code memoryHours}. Pure, not
 * thread-safe.
 */
public final class HourOfWeekProfile {

  /** Hours in a week. */
  public static final int HOURS = 168;

  private static final long WEEK = HOURS * 3600L;

  private final double memoryHours;
  private final double[] counts = new double[HOURS];
  private final double[] exposure = new double[HOURS];
  private double total;
  private double totalExposure;
  private long updatedAt = Long.MIN_VALUE;

  /**
   * @param memoryHours time constant of forgetting; infinite never forgets
   */
  public HourOfWeekProfile(double memoryHours) {
    if (!(memoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    this.memoryHours = memoryHours;
  }

  /** The hour-of-week bin of an instant: 0 = Monday 00:00–01:00 UTC. */
  public static int hourOfWeek(long epochSecond) {
    // 1970-01-01 was a Thursday: Monday 00:00 is 72 hours after a multiple of 168 hours
    return (int) Math.floorMod(Math.floorDiv(epochSecond, 3600L) + 72, (long) HOURS);
  }

  /** The source was watched from {@code from} to {@code to} (items there are all recorded). */
  public void observed(long from, long to, long now) {
    if (to <= from) {
      return;
    }
    decayTo(now);
    long weeks = (to - from) / WEEK;
    if (weeks > 0) {
      for (int h = 0; h < HOURS; h++) {
        exposure[h] += weeks;
      }
      totalExposure += weeks * (double) HOURS;
      from += weeks * WEEK;
    }
    long t = from;
    while (t < to) {
      long end = Math.min(to, Math.floorDiv(t, 3600L) * 3600 + 3600);
      double hours = (end - t) / 3600.0;
      exposure[hourOfWeek(t)] += hours;
      totalExposure += hours;
      t = end;
    }
  }

  /** An item published at {@code publishedAt}, recorded at {@code now} (for forgetting). */
  public void add(long publishedAt, long now) {
    decayTo(now);
    int h = hourOfWeek(publishedAt);
    counts[h] += 0.5;
    counts[(h + 1) % HOURS] += 0.25;
    counts[(h + HOURS - 1) % HOURS] += 0.25;
    total += 1;
  }

  /**
   * A change known only to have happened in ({@code from}, {@code to}] — a page seen changed —
   * recorded at {@code now}: its one count is shared among the interval's hours in proportion to
   * {@code prior} (the rate multipliers believed so far, e.g. the population's; null = flat), the
   * expected share of each hour given that belief (one E-step).
   */
  public void addSpread(long from, long to, double[] prior, long now) {
    if (to <= from) {
      return;
    }
    decayTo(now);
    long first = Math.floorDiv(from, 3600L);
    long last = Math.floorDiv(to - 1, 3600L);
    int n = (int) Math.min(HOURS, last - first + 1);
    double sum = 0;
    double[] w = new double[n];
    for (int i = 0; i < n; i++) {
      long hour = first + i;
      double part = (Math.min(to, (hour + 1) * 3600) - Math.max(from, hour * 3600)) / 3600.0;
      w[i] = part * (prior == null ? 1.0 : prior[hourOfWeek(hour * 3600)]);
      sum += w[i];
    }
    if (!(sum > 0)) {
      return;
    }
    for (int i = 0; i < n; i++) {
      counts[hourOfWeek((first + i) * 3600)] += w[i] / sum;
    }
    total += 1;
  }

  /** Items recorded (after forgetting). */
  public double total() {
    return total;
  }

  /**
   * Rate multipliers per hour, mean 1 over the week: (items + k·parent) / (mean rate × observed
   * hours + k) with k = kappa / 168 pseudo-items per hour; a null parent is flat.
   */
  public double[] multipliers(double[] parent, double kappa, double[] out) {
    double k = kappa / HOURS;
    double mean = totalExposure > 0 ? total / totalExposure : 0;
    double sum = 0;
    for (int h = 0; h < HOURS; h++) {
      double p = parent == null ? 1.0 : parent[h];
      out[h] = mean > 0 ? (counts[h] + k * p) / (mean * exposure[h] + k) : p;
      sum += out[h];
    }
    for (int h = 0; h < HOURS; h++) {
      out[h] *= HOURS / sum;
    }
    return out;
  }

  private void decayTo(long at) {
    if (updatedAt != Long.MIN_VALUE && at > updatedAt && memoryHours != Double.POSITIVE_INFINITY) {
      double d = Math.exp(-(at - updatedAt) / 3600.0 / memoryHours);
      for (int h = 0; h < HOURS; h++) {
        counts[h] *= d;
        exposure[h] *= d;
      }
      total *= d;
      totalExposure *= d;
    }
    if (at > updatedAt) {
      updatedAt = at;
    }
  }
}
