package io.freshet.stats.state;

import io.freshet.cadence.estimate.AgeHazard;
import io.freshet.cadence.estimate.RateGrid;
import io.freshet.cadence.estimate.RatePosterior;
import io.freshet.cadence.estimate.StreamingPrior;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The change-rate populations of one stream task: what the lab's {@code adaptive} estimates with,
 * in production. A source's {@code change_rate} is its {@link RatePosterior}'s mean λ̄ under the
 * prior of its population times the population's age hazard h(time since the source's last change)
 * — bursts after a change, quiet after a long silence ({@link AgeHazard}, one curve per mean-rate
 * stratum) — and each read teaches both: the prior ({@link StreamingPrior}: online EM, each source
 * counting for the hours since its previous read) and the hazard (the read's span, split at each
 * new item's publication time, as the lab's {@code adaptive} feeds it). The hazard's multipliers
 * are recomputed every {@link #HAZARD_REFRESH_HOURS} hours of the task's record time (the lab's
 * plan period) and stored then. Feeds (item evidence) and pages (changed / not changed) are two
 * populations, as they are two trace families in the lab: a page's one bit per fetch is not weighed
 * against feeds' rates.
 *
 * <p>One per task: a task's sources are the partitions' share of all sources, hashed by id, so a
 * random sample of the population; a task with few sources leans on the broad prior (the rate
 * model's pseudo-sources). The priors are kept in the task's own store (see {@code
 * SourceStatsProcessor}), so they commit with the states and survive restarts and rebalances. Not
 * thread-safe: a task is processed by one thread.
 */
public final class RatePopulation {

  /** The store keys of the two priors. */
  public static final String ITEMS = "items";

  public static final String CHANGES = "changes";

  /** The store keys of the two age hazards. */
  public static final String HAZARD_ITEMS = "hazard-items";

  public static final String HAZARD_CHANGES = "hazard-changes";

  /** Every key a task stores: what {@link #read} restores at the task's start. */
  public static final java.util.List<String> KEYS =
      java.util.List.of(ITEMS, CHANGES, HAZARD_ITEMS, HAZARD_CHANGES);

  /** Hours of record time between recomputations (and stores) of the hazards' multipliers. */
  public static final double HAZARD_REFRESH_HOURS = 3;

  private static final byte FORMAT = 1;

  private final StatsUpdater updater;
  private final StatsSettings.RateModel model;
  private final double typicalRate;
  private StreamingPrior items;
  private StreamingPrior changes;
  private AgeHazard itemHazard;
  private AgeHazard changeHazard;
  private long refreshedAt = Long.MIN_VALUE;
  private final java.util.Set<String> dirty = new java.util.LinkedHashSet<>();
  private final double[] scratch = new double[RateGrid.STANDARD.size()];

  public RatePopulation(StatsUpdater updater) {
    this.updater = updater;
    this.model = updater.settings().rateModel();
    this.typicalRate = updater.settings().priorRatePerHour();
    this.items = fresh();
    this.changes = fresh();
    this.itemHazard = new AgeHazard(model.itemMemoryHours(), AgeHazard.RATE_STRATA);
    this.changeHazard = new AgeHazard(model.changeMemoryHours(), AgeHazard.RATE_STRATA);
  }

  /**
   * Whether {@code change_rate} is the posterior's (else the tracker's, and nothing is learned).
   */
  public boolean enabled() {
    return model.estimator() == StatsSettings.Estimator.POSTERIOR;
  }

  /** The prior of feeds ({@code true}) or pages. */
  public StreamingPrior prior(boolean itemEvidence) {
    return itemEvidence ? items : changes;
  }

  /** The age hazard of feeds ({@code true}) or pages. */
  public AgeHazard hazard(boolean itemEvidence) {
    return itemEvidence ? itemHazard : changeHazard;
  }

  /**
   * The store keys whose values changed since the last call, with their bytes ({@link #write}): the
   * processor puts them to the priors store after every record, so what a task stored is always
   * what its states were derived with (the store is cached: one changelog record per key per
   * commit), and a restarted task derives exactly what an uninterrupted one would.
   */
  public java.util.Map<String, byte[]> takeDirty() {
    java.util.Map<String, byte[]> out = new java.util.LinkedHashMap<>();
    for (String key : dirty) {
      out.put(key, write(key));
    }
    dirty.clear();
    return out;
  }

  /**
   * After {@code state} was updated by an outcome: teaches its population's hazard what the read
   * saw, derives the source's change rate (λ̄ under the prior, times the hazard at its age) and, if
   * the outcome read the source, teaches the prior. What changed is in {@link #takeDirty}.
   */
  public void learn(SourceState state) {
    if (!enabled()) {
      return;
    }
    SourceState.Read read = state.lastRead;
    state.lastRead = null;
    RatePosterior posterior =
        state.lastPosterior != null ? state.lastPosterior : updater.posterior(state);
    state.lastPosterior = null;
    if (posterior.observations() == 0) {
      state.changeRate = -1;
      return;
    }
    boolean feed = posterior.hasItems();
    StreamingPrior prior = prior(feed);
    AgeHazard hazard = hazard(feed);
    if (read != null) {
      learnHazard(hazard, state, read, state.meanRate);
      dirty.add(feed ? HAZARD_ITEMS : HAZARD_CHANGES);
      refreshIfDue(read.at());
    }
    double mean = posterior.posterior(prior.weights(), scratch);
    state.meanRate = mean;
    long at = state.lastSuccessAt / 1000;
    double h =
        state.lastChange == SourceState.NEVER || state.lastChange > at
            ? 1.0
            : hazard.multiplier((at - state.lastChange) / 3600.0, mean);
    state.changeRate = mean * h;
    if (read == null || read.previousAt() == SourceState.NEVER || read.at() <= read.previousAt()) {
      return; // a first read or no read (a failure): no stretch of time to count it for
    }
    prior.add(scratch, (read.at() - read.previousAt()) / 3_600_000.0, read.at() / 1000);
    dirty.add(feed ? ITEMS : CHANGES);
  }

  /**
   * The lab's {@code adaptive}'s hazard protocol: a feed's read is split at each new item's time (a
   * change at the end of each piece), then the quiet rest; a page's read is one span that changed
   * or not, its change placed mid-span.
   */
  private static void learnHazard(
      AgeHazard hazard, SourceState state, SourceState.Read read, double mean) {
    long now = read.at() / 1000;
    if (read.newItemTimes() != null) {
      if (read.truncated() || state.lastChange == SourceState.NEVER) {
        if (!state.recentPublished.isEmpty()) {
          state.lastChange = state.recentPublished.getFirst() / 1000;
        }
        return;
      }
      long cursor = read.previousAt() / 1000;
      for (long published : read.newItemTimes()) {
        long t = Math.max(cursor, published / 1000);
        if (mean > 0) {
          hazard.observe(
              now, mean, (cursor - state.lastChange) / 3600.0, (t - cursor) / 3600.0, 1, true);
        }
        state.lastChange = t;
        cursor = t;
      }
      if (mean > 0) {
        hazard.observe(
            now, mean, (cursor - state.lastChange) / 3600.0, (now - cursor) / 3600.0, 0, true);
      }
      return;
    }
    if (read.previousAt() == SourceState.NEVER) {
      return;
    }
    long previous = read.previousAt() / 1000;
    if (state.lastChange != SourceState.NEVER && mean > 0) {
      hazard.observe(
          now,
          mean,
          (previous - state.lastChange) / 3600.0,
          (now - previous) / 3600.0,
          read.changed() ? 1 : 0,
          false);
    }
    if (read.changed()) {
      state.lastChange = previous + (now - previous) / 2;
    }
  }

  private void refreshIfDue(long atMillis) {
    if (refreshedAt != Long.MIN_VALUE
        && atMillis - refreshedAt < HAZARD_REFRESH_HOURS * 3_600_000) {
      return;
    }
    itemHazard.refresh();
    changeHazard.refresh();
    refreshedAt = atMillis;
    dirty.add(HAZARD_ITEMS);
    dirty.add(HAZARD_CHANGES);
  }

  /** The prior or hazard under {@code key}, as stored (bulk-copied doubles, big-endian). */
  public byte[] write(String key) {
    if (HAZARD_ITEMS.equals(key) || HAZARD_CHANGES.equals(key)) {
      AgeHazard h = hazard(HAZARD_ITEMS.equals(key));
      int doubles = 3 * h.rows() * AgeHazard.bins();
      ByteBuffer b = ByteBuffer.allocate(3 + doubles * 8 + 8 + 8 + 8);
      b.put(FORMAT).put((byte) h.rows()).put((byte) AgeHazard.bins());
      h.putArrays(b.asDoubleBuffer());
      b.position(b.position() + doubles * 8);
      b.putDouble(h.sqrtMean()).putLong(h.updatedAt()).putLong(refreshedAt);
      return b.array();
    }
    StreamingPrior.Snapshot p = prior(ITEMS.equals(key)).snapshot();
    ByteBuffer b = ByteBuffer.allocate(3 + p.sum().length * 8 + 8 + 8);
    b.put(FORMAT).putShort((short) p.sum().length);
    b.asDoubleBuffer().put(p.sum());
    b.position(b.position() + p.sum().length * 8);
    b.putDouble(p.total()).putLong(p.updatedAt());
    return b.array();
  }

  private void readHazard(String key, byte[] bytes) {
    boolean feed = HAZARD_ITEMS.equals(key);
    double memory = feed ? model.itemMemoryHours() : model.changeMemoryHours();
    AgeHazard h = new AgeHazard(memory, AgeHazard.RATE_STRATA);
    if (bytes != null) {
      try {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.get() != FORMAT) {
          throw new SerializationException("unknown age-hazard format");
        }
        int rows = Byte.toUnsignedInt(in.get());
        int bins = Byte.toUnsignedInt(in.get());
        double[][][] arrays = new double[3][rows][bins];
        for (double[][] a : arrays) {
          for (double[] row : a) {
            in.asDoubleBuffer().get(row);
            in.position(in.position() + bins * 8);
          }
        }
        h =
            AgeHazard.restore(
                memory,
                AgeHazard.RATE_STRATA,
                new AgeHazard.Snapshot(
                    arrays[0], arrays[1], arrays[2], in.getDouble(), in.getLong()));
        refreshedAt = Math.max(refreshedAt, in.getLong());
      } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
        throw new SerializationException("unreadable age hazard '" + key + "'", e);
      }
    }
    if (feed) {
      itemHazard = h;
    } else {
      changeHazard = h;
    }
  }

  /**
   * Restores the prior or hazard under {@code key} from its stored bytes (null: starts afresh).
   *
   * @throws SerializationException if the bytes are not one this build reads
   */
  public void read(String key, byte[] bytes) {
    if (HAZARD_ITEMS.equals(key) || HAZARD_CHANGES.equals(key)) {
      readHazard(key, bytes);
      return;
    }
    StreamingPrior p = fresh();
    if (bytes != null) {
      try {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        if (in.get() != FORMAT) {
          throw new SerializationException("unknown rate-prior format");
        }
        double[] sum = new double[Short.toUnsignedInt(in.getShort())];
        in.asDoubleBuffer().get(sum);
        in.position(in.position() + sum.length * 8);
        p =
            StreamingPrior.restore(
                RateGrid.STANDARD,
                typicalRate,
                model.priorMemoryHours(),
                model.priorPseudoSources(),
                new StreamingPrior.Snapshot(sum, in.getDouble(), in.getLong()));
      } catch (BufferUnderflowException | IndexOutOfBoundsException | IllegalArgumentException e) {
        throw new SerializationException("unreadable rate prior '" + key + "'", e);
      }
    }
    if (ITEMS.equals(key)) {
      items = p;
    } else {
      changes = p;
    }
  }

  private StreamingPrior fresh() {
    return new StreamingPrior(
        RateGrid.STANDARD, typicalRate, model.priorMemoryHours(), model.priorPseudoSources());
  }
}
