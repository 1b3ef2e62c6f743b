package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;

/** Every source at the same interval: the baseline every scheduler starts from (default 1 h). */
public final class FixedIntervalPolicy implements SimPolicy {

  /**
   * Default interval: one hour (Miniflux's round-robin default, the pro tier of ADR 0008
   * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)).
   */
  public static final double DEFAULT_SECONDS = 3600;

  private final double seconds;

  public FixedIntervalPolicy(double seconds) {
    this.seconds = seconds;
  }

  @Override
  public double onFetch(FetchObservation obs) {
    return seconds;
  }
}
