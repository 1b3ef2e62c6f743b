package io.freshet.stats.state;

import io.freshet.cadence.estimate.RateGrid;
import io.freshet.cadence.estimate.RatePosterior;
import io.freshet.cadence.estimate.RateTracker;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Applies one {@code FetchCompleted} to a source's {@link SourceState}: the definitions of the
 * module README, in plain Java. The clock only guards against a worker whose clock runs ahead: a
 * fetch time later than now is taken as now, so one skewed worker cannot push the estimates into
 * the future.
 */
public final class StatsUpdater {

  /** What applying an outcome did. */
  public enum Applied {
    /** The state changed; new stats are due. */
    UPDATED,
    /** The same outcome (request id and finish time) was applied before: nothing changed. */
    DUPLICATE,
    /** An expired request (dropped unfetched) says nothing about the source: nothing changed. */
    IGNORED
  }

  private static final double MILLIS_PER_DAY = 86_400_000.0;

  private final StatsSettings settings;
  private final Clock clock;

  public StatsUpdater(StatsSettings settings, Clock clock) {
    this.settings = Objects.requireNonNull(settings);
    this.clock = Objects.requireNonNull(clock);
  }

  public StatsSettings settings() {
    return settings;
  }

  /** The state of a source never seen before. */
  public SourceState initial() {
    return new SourceState(
        new RateTracker(settings.rateWindowHours(), settings.priorRatePerHour()).snapshot());
  }

  /** Applies {@code outcome} to {@code state} (mutating it) and says what it did. */
  public Applied apply(SourceState state, FetchCompleted outcome) {
    switch (outcome.getStatus()) {
      case expired -> {
        return Applied.IGNORED;
      }
      case ok, partial, not_modified, failed -> {}
      case unknown ->
          throw new IllegalArgumentException(
              "status unknown (a newer schema's symbol) must be dead-lettered before");
    }
    long identity = outcomeIdentity(outcome.getRequestId(), outcome.getFinishedAt().toEpochMilli());
    if (!state.appliedOutcomes.add(identity, settings.appliedOutcomes())) {
      return Applied.DUPLICATE;
    }
    String tenant = outcome.getTenantId();
    if (tenant != null && !tenant.isBlank()) {
      state.tenantId = tenant; // a source belongs to one tenant: the latest outcome that says so
    }

    long at = Math.min(outcome.getFinishedAt().toEpochMilli(), clock.millis());
    state.updatedAt = Math.max(state.updatedAt, at);
    state.lastRead = null;
    state.lastPosterior = null;
    switch (outcome.getStatus()) {
      case failed -> state.consecutiveMisses++;
      case not_modified -> {
        state.consecutiveMisses = 0;
        state.consecutiveEmpty++;
        addToWindow(state, FetchSummary.empty(at));
        learnNothingChanged(state, at);
        state.lastRead =
            new SourceState.Read(
                state.lastSuccessAt,
                at,
                state.rate.itemExposureHours() > 0 ? new long[0] : null,
                false,
                false);
        state.lastSuccessAt = at;
      }
      case ok, partial -> read(state, outcome.getItems(), at);
      case expired, unknown -> throw new IllegalStateException("handled above");
    }
    return Applied.UPDATED;
  }

  private void read(SourceState state, List<ItemDigest> items, long at) {
    int newItems = 0;
    int[] typeCounts = new int[SignalTypes.COUNT];
    List<Double> days = new ArrayList<>();
    int datedNew = 0;
    int dated = 0;
    int seen = 0;
    long oldestListed = Long.MAX_VALUE;
    long[] newTimes = new long[items.size()];
    for (ItemDigest item : items) {
      Long published = millis(item.getPublishedAt());
      boolean usableDate = published != null && published <= at;
      if (usableDate) {
        dated++;
        oldestListed = Math.min(oldestListed, published);
        addPublication(state, published);
      }
      if (item.getNovelty() == ItemNovelty.seen) {
        seen++;
        continue;
      }
      if (!state.countedHashes.add(hash64(item.getContentHash()), settings.countedHashes())) {
        continue; // counted before: a redelivered or re-emitted request marked it new again
      }
      newItems++;
      typeCounts[SignalTypes.index(item.getSignalType())]++;
      Long eventAt = millis(item.getEventAt());
      if (eventAt != null && eventAt > at && days.size() < FetchSummary.MAX_EVENTS) {
        days.add((eventAt - at) / MILLIS_PER_DAY);
      }
      if (usableDate) {
        newTimes[datedNew++] = published;
      }
    }
    state.consecutiveMisses = 0;
    state.consecutiveEmpty = newItems == 0 ? state.consecutiveEmpty + 1 : 0;
    addToWindow(
        state,
        new FetchSummary(
            at, newItems, typeCounts, days.stream().mapToDouble(Double::doubleValue).toArray()));
    learn(state, at, newItems, dated, datedNew, seen, oldestListed);
    boolean itemKind = dated > 0 || state.rate.itemExposureHours() > 0;
    long[] times = null;
    if (dated > 0) {
      times = java.util.Arrays.copyOf(newTimes, datedNew);
      java.util.Arrays.sort(times);
    }
    boolean truncated =
        dated > 0
            && (state.lastSuccessAt == SourceState.NEVER
                || (seen == 0 && oldestListed > state.lastSuccessAt));
    state.lastRead =
        new SourceState.Read(
            state.lastSuccessAt, at, itemKind ? times : null, truncated, newItems > 0);
    state.lastSuccessAt = at;
  }

  /**
   * Feeds the estimator as the simulator does: item times when the source gives them, changed / not
   * changed otherwise. On the first read, or when every listed item is new and the list does not
   * reach back to the previous read (it overflowed), the evidence starts at the oldest listed item,
   * which is not counted.
   */
  private void learn(
      SourceState state, long at, int newItems, int dated, int datedNew, int seen, long oldest) {
    RateTracker tracker = tracker(state);
    RatePosterior posterior = posterior(state);
    long atSec = at / 1000;
    if (dated > 0) {
      boolean first = state.lastSuccessAt == SourceState.NEVER;
      boolean overflowed = !first && seen == 0 && oldest > state.lastSuccessAt;
      if (first || overflowed) {
        double count = Math.max(0, Math.min(datedNew, dated) - 1);
        tracker.observeItems(atSec, count, oldest / 1000);
        posterior.observeItems(atSec, count, oldest / 1000);
      } else {
        tracker.observeItems(atSec, datedNew, state.lastSuccessAt / 1000);
        posterior.observeItems(atSec, datedNew, state.lastSuccessAt / 1000);
      }
    } else if (state.lastSuccessAt != SourceState.NEVER) {
      observeUndated(state, tracker, posterior, atSec, newItems, newItems > 0);
    }
    state.rate = tracker.snapshot();
    state.posterior = posterior.snapshot();
    state.lastPosterior = posterior;
  }

  private void learnNothingChanged(SourceState state, long at) {
    if (state.lastSuccessAt == SourceState.NEVER) {
      return;
    }
    RateTracker tracker = tracker(state);
    RatePosterior posterior = posterior(state);
    observeUndated(state, tracker, posterior, at / 1000, 0, false);
    state.rate = tracker.snapshot();
    state.posterior = posterior.snapshot();
    state.lastPosterior = posterior;
  }

  /** A read without dated items: items counted if the source ever gave some, else a change bit. */
  private static void observeUndated(
      SourceState state,
      RateTracker tracker,
      RatePosterior posterior,
      long atSec,
      int newItems,
      boolean changed) {
    long since = state.lastSuccessAt / 1000;
    if (state.rate.itemExposureHours() > 0) {
      tracker.observeItems(atSec, newItems, since);
      posterior.observeItems(atSec, newItems, since);
    } else {
      tracker.observeChange(atSec, since, changed);
      posterior.observeChange(atSec, since, changed);
    }
  }

  /** The estimator holding {@code state}'s evidence. */
  public RateTracker tracker(SourceState state) {
    return RateTracker.restore(settings.rateWindowHours(), settings.priorRatePerHour(), state.rate);
  }

  /**
   * The empirical-Bayes evidence of {@code state}. A state written before it kept one (format 3)
   * starts from the tracker's evidence: its item count and hours, or its recent page observations.
   */
  public RatePosterior posterior(SourceState state) {
    StatsSettings.RateModel m = settings.rateModel();
    if (state.posterior.observations() > 0 || !state.rate.hasEvidence()) {
      return RatePosterior.restore(
          RateGrid.STANDARD, m.itemMemoryHours(), m.changeMemoryHours(), state.posterior);
    }
    RatePosterior seeded =
        new RatePosterior(RateGrid.STANDARD, m.itemMemoryHours(), m.changeMemoryHours());
    RateTracker.Snapshot r = state.rate;
    if (r.itemExposureHours() > 0) {
      seeded.observeItems(
          r.itemUpdatedAt(),
          r.itemCount(),
          r.itemUpdatedAt() - Math.round(r.itemExposureHours() * 3600));
    } else {
      for (int j = 0; j < r.intervals().length; j++) {
        long at = r.observedAt()[j];
        seeded.observeChange(at, at - Math.round(r.intervals()[j] * 3600), r.changed()[j]);
      }
    }
    return seeded;
  }

  private void addToWindow(SourceState state, FetchSummary summary) {
    state.window.addLast(summary);
    while (state.window.size() > settings.windowSize()) {
      state.window.removeFirst();
    }
  }

  private static void addPublication(SourceState state, long published) {
    List<Long> recent = state.recentPublished;
    int i = 0;
    while (i < recent.size() && recent.get(i) > published) {
      i++;
    }
    if (i < recent.size() && recent.get(i) == published) {
      return;
    }
    if (i >= SourceState.RECENT_PUBLICATIONS) {
      return;
    }
    recent.add(i, published);
    if (recent.size() > SourceState.RECENT_PUBLICATIONS) {
      recent.removeLast();
    }
  }

  /**
   * 64 bits identifying an outcome: its request id and finish time, as a redelivered record repeats
   * them and a retried fetch (same request, later finish) does not. FNV-1a over the id's
   * characters, the finish time mixed in, then SplitMix64's finaliser so that every input bit moves
   * every output bit. Two distinct outcomes of one source are taken for each other — the second
   * ignored as a redelivery — with probability about (outcomes remembered) / 2^64 each: never, in
   * practice.
   */
  static long outcomeIdentity(String requestId, long finishedAtMillis) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < requestId.length(); i++) {
      h ^= requestId.charAt(i);
      h *= 0x100000001b3L;
    }
    h ^= finishedAtMillis * 0x9E3779B97F4A7C15L;
    h = (h ^ (h >>> 30)) * 0xbf58476d1ce4e5b9L;
    h = (h ^ (h >>> 27)) * 0x94d049bb133111ebL;
    return h ^ (h >>> 31);
  }

  /**
   * 64 bits of a content hash: its first 16 hex digits (SHA-256 is uniform, so collisions within
   * one source's few hundred remembered hashes are negligible); a non-hex hash is hashed with
   * FNV-1a.
   */
  static long hash64(String contentHash) {
    if (contentHash.length() >= 16) {
      try {
        return Long.parseUnsignedLong(contentHash.substring(0, 16), 16);
      } catch (NumberFormatException notHex) {
        // fall through
      }
    }
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < contentHash.length(); i++) {
      h ^= contentHash.charAt(i);
      h *= 0x100000001b3L;
    }
    return h;
  }

  private static Long millis(Instant instant) {
    return instant == null ? null : instant.toEpochMilli();
  }
}
