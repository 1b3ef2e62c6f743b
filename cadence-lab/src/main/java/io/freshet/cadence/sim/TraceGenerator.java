package io.freshet.cadence.sim;

import io.freshet.cadence.source.SignalType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A synthetic trace with the heterogeneity real sources show, so that policies are compared on
 * something harder than stationary Poisson sources:
 *
 * <ul>
 *   <li>base rates log-normal: median {@link Settings#medianPerDay} per day, σ = {@link
 *       Settings#sigma} in log space (2.2 spans ~4.4 orders of magnitude between the 1st and 99th
 *       percentile), clipped to [one per 180 days, 20 per hour];
 *   <li>a daily rhythm (amplitude 0.2–0.9, a random peak hour) and a weekly one (weekend activity
 *       20–100 % of weekdays);
 *   <li>bursts: every 10–40 days on average, 1–6 hours at 4–20 × the rate;
 *   <li>dormancy: a quarter of sources fall silent (1 % activity) for 5–30 days somewhere in the
 *       trace; a tenth start silent and wake up after 10–40 days;
 *   <li>calendars (10 % of sources): items are events dated 1–60 days ahead (median a week); other
 *       sources have a dominant signal type (informative 60 %, ask 15 %, give 15 %, event 10 %)
 *       that 70 % of their items carry.
 * </ul>
 *
 * Deterministic for a given seed.
 */
public final class TraceGenerator {

  /**
   * Generator settings.
   *
   * @param sources how many sources
   * @param days how long the trace is
   * @param seed random seed
   * @param start the trace's first instant
   * @param medianPerDay the median base rate, changes per day
   * @param sigma the base rate's log-space standard deviation
   */
  public record Settings(
      int sources, int days, long seed, Instant start, double medianPerDay, double sigma) {
    public Settings {
      if (sources < 1 || days < 1) {
        throw new IllegalArgumentException("sources and days must be ≥ 1");
      }
      if (!(medianPerDay > 0) || !(sigma >= 0)) {
        throw new IllegalArgumentException("median rate must be > 0 and sigma ≥ 0");
      }
    }

    /** 2,000 sources over 74 days (14 days of history before a 60-day window). */
    public static Settings benchmark() {
      return new Settings(2000, 74, 42, Instant.parse("2026-01-05T00:00:00Z"), 0.3, 2.2);
    }
  }

  private static final double MIN_RATE = 1.0 / (180 * 24);
  private static final double MAX_RATE = 20.0;

  private TraceGenerator() {}

  /** Generates the trace. */
  public static Trace generate(Settings settings) {
    SplittableRandom root = new SplittableRandom(settings.seed());
    List<String> ids = new ArrayList<>();
    long[][] times = new long[settings.sources()][];
    byte[][] types = new byte[settings.sources()][];
    long[][] events = new long[settings.sources()][];
    String format = "src-%0" + Math.max(4, String.valueOf(settings.sources()).length()) + "d";
    for (int s = 0; s < settings.sources(); s++) {
      ids.add(String.format(format, s));
      Source src = new Source(settings, root.split());
      times[s] = src.times;
      types[s] = src.types;
      events[s] = src.events;
    }
    return new Trace(ids, times, types, events);
  }

  /** One source's hidden process and its realisation. */
  private static final class Source {
    long[] times = new long[16];
    byte[] types = new byte[16];
    long[] events = new long[16];
    int size;

    Source(Settings settings, SplittableRandom rnd) {
      double lambda =
          Math.exp(Math.log(settings.medianPerDay() / 24) + settings.sigma() * gaussian(rnd));
      lambda = Math.max(MIN_RATE, Math.min(MAX_RATE, lambda));
      double amplitude = 0.2 + 0.7 * rnd.nextDouble();
      double peakHour = 24 * rnd.nextDouble();
      double weekend = 0.2 + 0.8 * rnd.nextDouble();
      double weekNorm = 7.0 / (5 + 2 * weekend);
      double burstsPerHour = 1.0 / ((10 + 30 * rnd.nextDouble()) * 24);
      int hours = settings.days() * 24;
      double[] dormant = new double[hours];
      Arrays.fill(dormant, 1.0);
      if (rnd.nextDouble() < 0.25) {
        int from = rnd.nextInt(hours);
        int len = (int) ((5 + 25 * rnd.nextDouble()) * 24);
        Arrays.fill(dormant, from, Math.min(hours, from + len), 0.01);
      }
      if (rnd.nextDouble() < 0.10) {
        int len = (int) ((10 + 30 * rnd.nextDouble()) * 24);
        Arrays.fill(dormant, 0, Math.min(hours, len), 0.01);
      }
      boolean calendar = rnd.nextDouble() < 0.10;
      SignalType dominant = calendar ? SignalType.EVENT : dominantType(rnd);
      long start = settings.start().getEpochSecond();
      int burstLeft = 0;
      double burstFactor = 1;
      for (int h = 0; h < hours; h++) {
        if (burstLeft == 0 && rnd.nextDouble() < burstsPerHour) {
          burstLeft = 1 + rnd.nextInt(6);
          burstFactor = 4 + 16 * rnd.nextDouble();
        }
        double burst = burstLeft > 0 ? burstFactor : 1;
        if (burstLeft > 0) {
          burstLeft--;
        }
        int day = h / 24;
        // The trace starts on a Monday: days 5 and 6 of each week are the weekend.
        double week = (day % 7 >= 5 ? weekend : 1.0) * weekNorm;
        double daily = 1 + amplitude * Math.cos(2 * Math.PI * ((h % 24) - peakHour) / 24);
        int count = poisson(rnd, lambda * daily * week * burst * dormant[h]);
        if (count == 0) {
          continue;
        }
        long[] in = new long[count];
        for (int i = 0; i < count; i++) {
          in[i] = start + h * 3600L + rnd.nextInt(3600);
        }
        Arrays.sort(in);
        for (long t : in) {
          SignalType type = calendar || rnd.nextDouble() < 0.7 ? dominant : anyType(rnd);
          long event = Trace.NONE;
          if (calendar || (type == SignalType.EVENT && rnd.nextDouble() < 0.5)) {
            double daysAhead =
                Math.min(60, Math.max(1, Math.exp(Math.log(7) + 0.8 * gaussian(rnd))));
            event = t + (long) (daysAhead * 86400);
          }
          add(t, (byte) type.ordinal(), event);
        }
      }
      times = Arrays.copyOf(times, size);
      types = Arrays.copyOf(types, size);
      events = Arrays.copyOf(events, size);
    }

    private void add(long t, byte type, long event) {
      if (size == times.length) {
        times = Arrays.copyOf(times, size * 2);
        types = Arrays.copyOf(types, size * 2);
        events = Arrays.copyOf(events, size * 2);
      }
      times[size] = t;
      types[size] = type;
      events[size] = event;
      size++;
    }
  }

  private static SignalType dominantType(SplittableRandom rnd) {
    double u = rnd.nextDouble();
    if (u < 0.60) {
      return SignalType.INFORMATIVE;
    }
    if (u < 0.75) {
      return SignalType.ASK;
    }
    return u < 0.90 ? SignalType.GIVE : SignalType.EVENT;
  }

  private static SignalType anyType(SplittableRandom rnd) {
    return SignalType.values()[rnd.nextInt(SignalType.values().length)];
  }

  static double gaussian(SplittableRandom rnd) {
    double u1 = 1.0 - rnd.nextDouble();
    double u2 = rnd.nextDouble();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }

  static int poisson(SplittableRandom rnd, double mean) {
    if (mean <= 0) {
      return 0;
    }
    if (mean > 30) {
      return (int) Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian(rnd)));
    }
    double limit = Math.exp(-mean);
    double p = rnd.nextDouble();
    int k = 0;
    while (p > limit) {
      p *= rnd.nextDouble();
      k++;
    }
    return k;
  }
}
