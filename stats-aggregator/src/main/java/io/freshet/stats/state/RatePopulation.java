package io.freshet.stats.state;

import io.freshet.cadence.estimate.RateGrid;
import io.freshet.cadence.estimate.RatePosterior;
import io.freshet.cadence.estimate.StreamingPrior;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The change-rate populations of one stream task: what the lab's {@code adaptive} estimates with,
 * in production. A source's {@code change_rate} is its {@link RatePosterior}'s mean under the prior
 * of its population, and each fetch teaches that prior ({@link StreamingPrior}: online EM, each
 * source counting for the hours since its previous fetch). Feeds (item evidence) and pages (changed
 * / not changed) are two populations, as they are two trace families in the lab: a page's one bit
 * per fetch is not weighed against feeds' rates.
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

  private static final byte FORMAT = 1;

  private final StatsUpdater updater;
  private final StatsSettings.RateModel model;
  private final double typicalRate;
  private StreamingPrior items;
  private StreamingPrior changes;
  private final double[] scratch = new double[RateGrid.STANDARD.size()];

  public RatePopulation(StatsUpdater updater) {
    this.updater = updater;
    this.model = updater.settings().rateModel();
    this.typicalRate = updater.settings().priorRatePerHour();
    this.items = fresh();
    this.changes = fresh();
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

  /**
   * After {@code state} was updated by an outcome: derives its change rate under its population's
   * prior and, if the outcome read the source, teaches the prior.
   *
   * @param previousSuccessAt the state's last read before this outcome (epoch ms, or {@link
   *     SourceState#NEVER})
   * @return the key of the prior that changed ({@link #ITEMS}, {@link #CHANGES}), or null
   */
  public String learn(SourceState state, long previousSuccessAt) {
    if (!enabled()) {
      return null;
    }
    RatePosterior posterior = updater.posterior(state);
    if (posterior.observations() == 0) {
      state.changeRate = -1;
      return null;
    }
    boolean feed = posterior.hasItems();
    StreamingPrior prior = prior(feed);
    state.changeRate = posterior.posterior(prior.weights(), scratch);
    if (previousSuccessAt == SourceState.NEVER || state.lastSuccessAt <= previousSuccessAt) {
      return null; // a first read or no read (a failure): no stretch of time to count it for
    }
    prior.add(
        scratch,
        (state.lastSuccessAt - previousSuccessAt) / 3_600_000.0,
        state.lastSuccessAt / 1000);
    return feed ? ITEMS : CHANGES;
  }

  /** The prior under {@code key}, as stored. */
  public byte[] write(String key) {
    StreamingPrior.Snapshot s = prior(ITEMS.equals(key)).snapshot();
    try {
      var bytes = new ByteArrayOutputStream(16 + s.sum().length * 8);
      var out = new DataOutputStream(bytes);
      out.writeByte(FORMAT);
      out.writeShort(s.sum().length);
      for (double v : s.sum()) {
        out.writeDouble(v);
      }
      out.writeDouble(s.total());
      out.writeLong(s.updatedAt());
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Restores the prior under {@code key} from its stored bytes (null: starts broad).
   *
   * @throws SerializationException if the bytes are not a prior this build reads
   */
  public void read(String key, byte[] bytes) {
    StreamingPrior p = fresh();
    if (bytes != null) {
      try {
        var in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readByte() != FORMAT) {
          throw new SerializationException("unknown rate-prior format");
        }
        double[] sum = new double[in.readUnsignedShort()];
        for (int k = 0; k < sum.length; k++) {
          sum[k] = in.readDouble();
        }
        p =
            StreamingPrior.restore(
                RateGrid.STANDARD,
                typicalRate,
                model.priorMemoryHours(),
                model.priorPseudoSources(),
                new StreamingPrior.Snapshot(sum, in.readDouble(), in.readLong()));
      } catch (IOException | IllegalArgumentException e) {
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
