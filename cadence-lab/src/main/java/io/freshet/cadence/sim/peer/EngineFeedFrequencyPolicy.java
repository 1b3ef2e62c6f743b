package io.freshet.cadence.sim.peer;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code feed_frequency} (ADR 0011 (docs/adr/0011-feed-frequency-from-the-last-ten-items.md)), run
 * through the production {@link CadenceEngine}: the snapshot carries the publication times of the
 * items the fetch listed.
 */
public final class EngineFeedFrequencyPolicy implements SimPolicy {

  private final CadenceEngine engine;
  private final CadenceSpec spec = new CadenceSpec.FeedFrequency(Duration.ofMinutes(60));

  public EngineFeedFrequencyPolicy(CadenceEngine engine) {
    this.engine = engine;
  }

  @Override
  public double onFetch(FetchObservation obs) {
    int n = obs.listedCount();
    int from = Math.max(0, n - 10);
    List<Instant> dates = new ArrayList<>(n - from);
    for (int i = from; i < n; i++) {
      dates.add(Instant.ofEpochSecond(obs.listedTime(i)));
    }
    Instant now = Instant.ofEpochSecond(obs.now());
    SourceSnapshot snapshot = SourceSnapshot.builder().recentPublishedAt(dates).build();
    return Duration.between(now, engine.nextDueAt(spec, snapshot, Outcome.success(now), now))
        .toSeconds();
  }
}
