package io.freshet.cadence.estimate;

/**
 * How many items a source publishes at once: its items grouped into <i>clumps</i> (an item starts a
 * new clump when it comes {@link #GAP_HOURS} or more after the item before it), and the mean clump
 * size (items ÷ clumps), shrunk toward the population's with {@link #PSEUDO_CLUMPS}.
 *
 * <p>Why: the delay objective costs each item's wait, so a source's worth per fetch is its item
 * rate, but a source that publishes in clumps (a changelog page scraped into a feed, an archive
 * dumped at once) gives far less evidence about that rate than its item count says — 180 items in
 * one hour are one event, and four silent months after it are what a rate of one event in a few
 * months predicts, not proof of a dead source. A compound-Poisson reading: clumps arrive at rate ν
 * (the {@link RatePosterior} fed with clump counts), each of mean size b, so the item rate is ν·b.
 * A source with few clumps of its own takes b from its peers: in a population where some sources
 * dump, a quiet one is not assumed to publish one item at a time.
 *
 * <p>Counts fade with time constant {@code memoryHours}, as the rate evidence does. Pure, not
 * thread-safe, one instance per source.
 */
public final class ClumpSize {

  /**
   * An item this long or more after the previous one starts a new clump (one hour, the feeds' poll
   * interval and {@link BurstExcitation}'s τ; set, not tuned).
   */
  public static final double GAP_HOURS = 1.0;

  /**
   * Clumps of the population's mean size a source's own record is shrunk with (as {@link
   * BurstExcitation}'s 5 pseudo-changes; set, not tuned).
   */
  public static final double PSEUDO_CLUMPS = 5;

  private final double memoryHours;
  private double items;
  private double clumps;
  private long updatedAt = Long.MIN_VALUE;
  private long lastItem = Long.MIN_VALUE;

  public ClumpSize(double memoryHours) {
    if (!(memoryHours > 0)) {
      throw new IllegalArgumentException("memory must be positive");
    }
    this.memoryHours = memoryHours;
  }

  /**
   * An item published at {@code atEpochSecond} (items in time order) after an earlier one at {@code
   * previousEpochSecond} ({@link Long#MIN_VALUE}: none known); returns whether it started a clump.
   */
  public boolean observe(long atEpochSecond, long previousEpochSecond) {
    long before = previousEpochSecond != Long.MIN_VALUE ? previousEpochSecond : lastItem;
    boolean starts = before == Long.MIN_VALUE || (atEpochSecond - before) / 3600.0 >= GAP_HOURS;
    decayTo(atEpochSecond);
    items += 1;
    if (starts) {
      clumps += 1;
    }
    lastItem = Math.max(lastItem, atEpochSecond);
    return starts;
  }

  /** An item at {@code atEpochSecond} after the last one this source has seen. */
  public boolean observe(long atEpochSecond) {
    return observe(atEpochSecond, Long.MIN_VALUE);
  }

  private void decayTo(long t) {
    if (updatedAt != Long.MIN_VALUE && t > updatedAt) {
      double f = Math.exp(-(t - updatedAt) / 3600.0 / memoryHours);
      items *= f;
      clumps *= f;
    }
    if (t > updatedAt) {
      updatedAt = t;
    }
  }

  /** Items seen (faded). */
  public double items() {
    return items;
  }

  /** Clumps seen (faded). */
  public double clumps() {
    return clumps;
  }

  /**
   * The source's mean clump size shrunk toward {@code populationSize}: (items + k·b_pop) / (clumps
   * + k), k = {@link #PSEUDO_CLUMPS}.
   */
  public double size(double populationSize) {
    return (items + PSEUDO_CLUMPS * populationSize) / (clumps + PSEUDO_CLUMPS);
  }

  /** The population's mean clump size: Σ items ÷ Σ clumps of its members, at least 1. */
  public static final class Population {
    private double items;
    private double clumps;
    private double size = 1;

    public void accumulate(ClumpSize c) {
      items += c.items;
      clumps += c.clumps;
    }

    /** Takes the sums accumulated since the last commit as the population's. */
    public void commit() {
      size = clumps > 0 ? Math.max(1, items / clumps) : 1;
      items = 0;
      clumps = 0;
    }

    public double size() {
      return size;
    }
  }
}
