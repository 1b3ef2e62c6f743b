package io.freshet.cadence.sim;

import java.util.Arrays;

/**
 * Replays a trace against a policy: every source is fetched once at the window start (bootstrap),
 * then whenever the policy says, until the window ends. Sources are independent between planning
 * rounds, so each one is advanced on its own (no global event queue): a round costs time linear in
 * its fetches and changes.
 */
public final class Simulator {

  /** No policy fetches a source more often than once a minute (Nutch's own floor). */
  public static final long MIN_GAP_SECONDS = 60;

  private final SimSetup setup;

  public Simulator(SimSetup setup) {
    this.setup = setup;
  }

  public SimSetup setup() {
    return setup;
  }

  /**
   * Runs {@code factory}'s policy with every interval multiplied by {@code scale}.
   *
   * @param measure collect delays and staleness (false: count fetches only, for calibration)
   * @param fetchLimit stop early once this many fetches are spent
   */
  public RunMetrics run(SimPolicy.Factory factory, double scale, boolean measure, long fetchLimit) {
    Trace trace = setup.trace();
    int n = trace.sources();
    long from = setup.from();
    long to = setup.to();
    SimPolicy policy = factory.create(setup);
    policy.scaledBy(scale);
    FetchObservation obs = new FetchObservation(trace, setup.mode(), setup.feedSize());
    Accumulator acc =
        new Accumulator(measure, setup.mode() == ObserveMode.FEED, setup.feedSize(), n);

    long[] next = new long[n];
    long[] last = new long[n];
    int[] ptr = new int[n];
    for (int s = 0; s < n; s++) {
      int hi = trace.firstAfter(s, from);
      obs.source = s;
      obs.now = from;
      obs.previous = Long.MIN_VALUE;
      obs.bootstrap = true;
      obs.newCount = hi;
      obs.hi = hi;
      ptr[s] = hi;
      last[s] = from;
      next[s] = from + gap(policy.onFetch(obs), scale);
    }
    obs.bootstrap = false;
    long period = policy.planPeriodSeconds();
    long epochStart = from;
    long fetches = 0;
    boolean truncated = false;
    while (epochStart < to && !truncated) {
      long epochEnd = period > 0 ? Math.min(to, epochStart + period) : to;
      if (period > 0) {
        policy.plan(epochStart);
      }
      for (int s = 0; s < n && !truncated; s++) {
        long[] times = trace.times()[s];
        while (next[s] < epochEnd) {
          long now = next[s];
          int lo = ptr[s];
          int hi = lo;
          while (hi < times.length && times[hi] <= now) {
            hi++;
          }
          acc.fetched(s, times, lo, hi, now);
          obs.source = s;
          obs.now = now;
          obs.previous = last[s];
          obs.newCount = hi - lo;
          obs.hi = hi;
          ptr[s] = hi;
          last[s] = now;
          next[s] = now + gap(policy.onFetch(obs), scale);
          fetches++;
          if (fetches > fetchLimit) {
            truncated = true;
            break;
          }
        }
      }
      epochStart = epochEnd;
    }
    long changes = 0;
    for (int s = 0; s < n; s++) {
      long[] times = trace.times()[s];
      int first = trace.firstAfter(s, from);
      int end = trace.firstAfter(s, to);
      changes += end - first;
      acc.changes(s, end - first);
      acc.pendingAtEnd(s, times, Math.min(ptr[s], end), end, to);
    }
    return acc.result(fetches, n, to - from, changes, scale, truncated);
  }

  private static long gap(double seconds, double scale) {
    double g = seconds * scale;
    if (!(g >= MIN_GAP_SECONDS)) {
      return MIN_GAP_SECONDS;
    }
    return g > 1e15 ? (long) 1e15 : Math.round(g);
  }

  /** Delay, freshness and staleness bookkeeping. */
  private static final class Accumulator {
    private final boolean measure;
    private final boolean feed;
    private final int feedSize;
    private float[] delays = new float[1 << 16];
    private int count;
    private double delaySum;
    private double staleSeconds;
    private double harmonicSeconds;
    private long unseen;
    private final long[] sourceChanges;
    private final double[] sourceDelay;
    private final long[] sourceFetches;

    Accumulator(boolean measure, boolean feed, int feedSize, int sources) {
      this.measure = measure;
      this.feed = feed;
      this.feedSize = feedSize;
      this.sourceChanges = new long[measure ? sources : 0];
      this.sourceDelay = new double[measure ? sources : 0];
      this.sourceFetches = new long[measure ? sources : 0];
    }

    void changes(int s, long k) {
      if (measure) {
        sourceChanges[s] = k;
      }
    }

    /** A fetch of source {@code s} at {@code now} saw the changes [lo, hi). */
    void fetched(int s, long[] times, int lo, int hi, long now) {
      if (!measure) {
        return;
      }
      sourceFetches[s]++;
      if (hi == lo) {
        return;
      }
      account(s, times, lo, hi, now);
      int k = hi - lo;
      unseen += feed ? Math.max(0, k - feedSize) : k - 1;
    }

    /** Changes [lo, hi) were still pending when the window ended at {@code to}. */
    void pendingAtEnd(int s, long[] times, int lo, int hi, long to) {
      if (!measure || hi <= lo) {
        return;
      }
      account(s, times, lo, hi, to);
      unseen += hi - lo;
    }

    private void account(int s, long[] times, int lo, int hi, long until) {
      staleSeconds += until - times[lo];
      double h = 0;
      for (int j = lo; j < hi; j++) {
        long d = until - times[j];
        add(d / 3600f);
        delaySum += d;
        sourceDelay[s] += d / 3600.0;
        h += 1.0 / (j - lo + 1);
        long segmentEnd = j + 1 < hi ? times[j + 1] : until;
        harmonicSeconds += h * (segmentEnd - times[j]);
      }
    }

    private void add(float hours) {
      if (count == delays.length) {
        delays = Arrays.copyOf(delays, count * 2);
      }
      delays[count++] = hours;
    }

    RunMetrics result(
        long fetches, int sources, long window, long changes, double scale, boolean truncated) {
      if (!measure) {
        return new RunMetrics(
            fetches,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            Double.NaN,
            -1,
            changes,
            scale,
            truncated);
      }
      float[] sorted = Arrays.copyOf(delays, count);
      Arrays.sort(sorted);
      double sourceTime = (double) sources * window;
      return new RunMetrics(
          fetches,
          count == 0 ? 0 : delaySum / count / 3600.0,
          percentile(sorted, 0.50),
          percentile(sorted, 0.95),
          1.0 - staleSeconds / sourceTime,
          harmonicSeconds / sourceTime,
          unseen,
          changes,
          scale,
          truncated,
          new RunMetrics.PerSource(sourceChanges, sourceDelay, sourceFetches));
    }

    private static double percentile(float[] sorted, double q) {
      if (sorted.length == 0) {
        return 0;
      }
      int i = (int) Math.min(sorted.length - 1, Math.floor(q * sorted.length));
      return sorted[i];
    }
  }
}
