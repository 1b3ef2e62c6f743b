package io.freshet.cadence.estimate;

import io.freshet.cadence.source.RateShape;

/**
 * A source's {@link RateShape} from what was learned about it: an {@link AgeHazard} curve at the
 * time since the source's last change (bursts, quiet spells) — the pooled one, or the one of the
 * source's mean-rate stratum — times its hour-of-week rhythm ({@link
 * HourOfWeekProfile#multipliers}), scaled so that fetching by it spends what the mean rate earns (m
 * divided by (mean √m)², the mean over the week and over the ages sources are watched at, or the
 * value now for {@link #relativeTo}). Either part may be absent. Immutable (the hazard curve is
 * copied; the hour-of-week array is not: pass a fresh one).
 */
public final class ChangeShape implements RateShape {

  private final double[] curve;
  private final long lastChange;
  private final double[] hourOfWeek;
  private final double norm;

  /**
   * A shape normalised by the hazard's population mean √h ({@link AgeHazard#sqrtMean}): for a
   * {@code change_rate} that is the plain mean rate.
   *
   * @param hazard the population's hazard, or null
   * @param lastChangeEpochSecond when the source last changed, or {@link Long#MIN_VALUE} if unknown
   *     (no burst term then)
   * @param hourOfWeek 168 multipliers (mean 1), or null for no rhythm
   */
  public ChangeShape(AgeHazard hazard, long lastChangeEpochSecond, double[] hourOfWeek) {
    this(
        hazard == null ? null : hazard.curve(),
        hazard == null ? 1.0 : hazard.sqrtMean(),
        lastChangeEpochSecond,
        hourOfWeek,
        Long.MIN_VALUE);
  }

  /**
   * A shape whose burst part is relative to the pooled hazard at {@code atEpochSecond}: for a rate
   * that already includes h(age at that time) (the plan then spends by the current rate).
   */
  public static ChangeShape relativeTo(
      AgeHazard hazard, long lastChangeEpochSecond, double[] hourOfWeek, long atEpochSecond) {
    return new ChangeShape(
        hazard == null ? null : hazard.curve(),
        1.0,
        lastChangeEpochSecond,
        hourOfWeek,
        atEpochSecond);
  }

  /**
   * As {@link #relativeTo(AgeHazard, long, double[], long)}, with the hazard curve of the stratum
   * of a source whose mean rate is {@code meanRate} per hour ({@link AgeHazard#curve(double)}).
   */
  public static ChangeShape relativeTo(
      AgeHazard hazard,
      double meanRate,
      long lastChangeEpochSecond,
      double[] hourOfWeek,
      long atEpochSecond) {
    return new ChangeShape(
        hazard == null ? null : hazard.curve(meanRate),
        1.0,
        lastChangeEpochSecond,
        hourOfWeek,
        atEpochSecond);
  }

  private ChangeShape(
      double[] curve,
      double sqrtMean,
      long lastChangeEpochSecond,
      double[] hourOfWeek,
      long relativeTo) {
    if (hourOfWeek != null && hourOfWeek.length != HourOfWeekProfile.HOURS) {
      throw new IllegalArgumentException("an hour-of-week profile has 168 entries");
    }
    this.curve = lastChangeEpochSecond == Long.MIN_VALUE ? null : curve;
    this.lastChange = lastChangeEpochSecond;
    this.hourOfWeek = hourOfWeek;
    double root;
    if (this.curve == null) {
      root = 1.0;
    } else if (relativeTo == Long.MIN_VALUE) {
      root = sqrtMean;
    } else {
      root = Math.sqrt(this.curve[AgeHazard.bin(Math.max(0, relativeTo - lastChange) / 3600.0)]);
    }
    if (hourOfWeek != null) {
      double r = 0;
      for (double m : hourOfWeek) {
        r += Math.sqrt(m) / hourOfWeek.length;
      }
      root *= r;
    }
    // the wait follows √m: dividing m by (mean √m)² keeps the mean spend of the unshaped rate
    this.norm = root > 0 ? 1.0 / (root * root) : 1.0;
  }

  @Override
  public double multiplier(long t) {
    double m = norm;
    if (curve != null) {
      m *= curve[AgeHazard.bin(Math.max(0, t - lastChange) / 3600.0)];
    }
    if (hourOfWeek != null) {
      m *= hourOfWeek[HourOfWeekProfile.hourOfWeek(t)];
    }
    return m;
  }

  @Override
  public long constantUntil(long t) {
    long until = Long.MAX_VALUE;
    if (hourOfWeek != null) {
      until = Math.floorDiv(t, 3600L) * 3600 + 3600;
    }
    if (curve != null) {
      double age = Math.max(0, t - lastChange) / 3600.0;
      double edge = AgeHazard.EDGES_HOURS[AgeHazard.bin(age) + 1];
      if (edge != Double.POSITIVE_INFINITY) {
        until = Math.min(until, lastChange + (long) Math.ceil(edge * 3600));
      }
    }
    return Math.max(t + 1, until);
  }
}
