package io.freshet.stats.state;

import io.freshet.cadence.estimate.RatePosterior;
import io.freshet.cadence.estimate.RateTracker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * Everything the stats-aggregator keeps about one source: the rolling window of fetch summaries,
 * the newest publication times, the bounded set of content hashes already counted, the outcomes
 * already applied, the miss and empty streaks and the change-rate estimator's evidence. Mutable;
 * one instance per source per update, owned by {@link StatsUpdater}.
 */
public final class SourceState {

  /** Publication times kept: the feed-frequency rule's "last 10 items". */
  public static final int RECENT_PUBLICATIONS = 10;

  /** Marks "never" for epoch fields. */
  public static final long NEVER = Long.MIN_VALUE;

  final Deque<FetchSummary> window;

  /** Newest first, distinct, at most {@link #RECENT_PUBLICATIONS}. */
  final List<Long> recentPublished;

  /** Insertion order = counting order; the oldest are evicted first. */
  LongRing countedHashes;

  /**
   * The outcomes applied most recently, oldest first, each as 64 bits of its identity ({@code
   * request_id} and {@code finished_at}, {@link StatsUpdater#outcomeIdentity}): 8 bytes instead of
   * ~52 as text, in a state read and written on every fetch.
   */
  LongRing appliedOutcomes;

  int consecutiveMisses;
  int consecutiveEmpty;

  /** The tenant that owns the source (from its outcomes); null while unknown. */
  String tenantId;

  long lastSuccessAt = NEVER;
  long updatedAt = NEVER;
  RateTracker.Snapshot rate;

  /** The empirical-Bayes estimator's evidence ({@link RatePosterior}); empty before any. */
  RatePosterior.Snapshot posterior = RatePosterior.Snapshot.EMPTY;

  /**
   * The change rate derived at the last update (the posterior mean under the population prior of
   * that moment), changes per hour; negative: none derived (the tracker's estimate is used).
   */
  double changeRate = -1;

  /** The posterior mean at the last update (before the age hazard), per hour; negative: none. */
  double meanRate = -1;

  /** Epoch second of the source's last change as its reads place it, or {@link #NEVER}. */
  long lastChange = NEVER;

  /**
   * What the outcome just applied read, for the population's age hazard ({@link RatePopulation});
   * null after a failure. Not persisted: it lives from {@link StatsUpdater#apply} to the
   * population's learning of the same record.
   *
   * @param previousAt the previous read's finish time (epoch ms), or {@link #NEVER}
   * @param at this read's finish time (epoch ms)
   * @param newItemTimes publication times (epoch ms, ascending) of the new dated items, for a
   *     source whose evidence is items (empty for a 304); null for a page-like read
   * @param truncated a first read, or a list that did not reach back to the previous read
   * @param changed whether the read found anything new
   */
  record Read(long previousAt, long at, long[] newItemTimes, boolean truncated, boolean changed) {}

  Read lastRead;

  /**
   * The posterior the outcome just applied updated, so the population's learning of the same record
   * does not restore it from {@link #posterior} again; null when the outcome did not touch it. Not
   * persisted, and the same instance {@link #posterior} was snapshotted from.
   */
  io.freshet.cadence.estimate.RatePosterior lastPosterior;

  SourceState(RateTracker.Snapshot rate) {
    this.window = new ArrayDeque<>();
    this.recentPublished = new ArrayList<>();
    this.countedHashes = new LongRing(64);
    this.appliedOutcomes = new LongRing(8);
    this.rate = Objects.requireNonNull(rate);
  }

  /** The window, oldest first. */
  public List<FetchSummary> window() {
    return List.copyOf(window);
  }

  /** Publication times of the newest items, newest first, epoch milliseconds. */
  public List<Long> recentPublished() {
    return List.copyOf(recentPublished);
  }

  /** How many content hashes are remembered as counted. */
  public int countedHashCount() {
    return countedHashes.size();
  }

  /**
   * The tenant that owns the source, from the latest outcome that named one; null while none has (a
   * state written before states recorded it, or outcomes of a worker that sends no tenant).
   */
  public String tenantId() {
    return tenantId;
  }

  public int consecutiveMisses() {
    return consecutiveMisses;
  }

  public int consecutiveEmpty() {
    return consecutiveEmpty;
  }

  /** Finish time of the last fetch that read the source, or {@link #NEVER}. */
  public long lastSuccessAt() {
    return lastSuccessAt;
  }

  /** Finish time of the newest outcome applied, or {@link #NEVER}. */
  public long updatedAt() {
    return updatedAt;
  }

  /** The change-rate estimator's evidence. */
  public RateTracker.Snapshot rate() {
    return rate;
  }

  /** The empirical-Bayes estimator's evidence. */
  public RatePosterior.Snapshot posterior() {
    return posterior;
  }

  /** The change rate derived at the last update, or negative if none was. */
  public double changeRate() {
    return changeRate;
  }
}
