package io.freshet.cadence.sim.peer;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SignalTracker;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;

/**
 * {@code signal_adaptive} (ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md)), run through the production
 * {@link CadenceEngine}: the snapshot carries the yield, dominant type and urgency that the fetches
 * so far observed ({@link SignalTracker}), and the simulation's category.
 */
public final class EngineSignalAdaptivePolicy implements SimPolicy {

  private final CadenceEngine engine;
  private final Category category;
  private final CadenceSpec spec;
  private final SignalTracker[] signals;

  public EngineSignalAdaptivePolicy(CadenceEngine engine, Category category, int sources) {
    this.engine = engine;
    this.category = category;
    this.spec = new CadenceSpec.SignalAdaptive(null, null, engine.defaults().coldStartFetches());
    this.signals = new SignalTracker[sources];
    for (int s = 0; s < sources; s++) {
      signals[s] = new SignalTracker();
    }
  }

  @Override
  public double onFetch(FetchObservation obs) {
    SignalTracker t = signals[obs.source()];
    if (!obs.bootstrap()) {
      t.observe(obs);
    }
    SourceSnapshot snapshot =
        SourceSnapshot.builder()
            .category(category)
            .windowFetches(t.windowFetches())
            .avgSignalYield(t.avgYield())
            .dominantSignalType(t.dominantType())
            .medianDaysToEvent(t.medianDaysToEvent())
            .build();
    Instant now = Instant.ofEpochSecond(obs.now());
    return Duration.between(now, engine.nextDueAt(spec, snapshot, Outcome.success(now), now))
        .toSeconds();
  }
}
