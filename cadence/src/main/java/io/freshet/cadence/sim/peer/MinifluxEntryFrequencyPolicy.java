package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.SimPolicy;
import io.freshet.cadence.sim.Trace;

/**
 * Miniflux's {@code entry_frequency} scheduler (internal/model/feed.go {@code ScheduleNextCheck},
 * defaults from internal/config): with W the number of the feed's entries published in the last
 * week, the next check is in (7 × 24 × 60) / (W × factor) minutes, clamped to [{@code
 * SCHEDULER_ENTRY_FREQUENCY_MIN_INTERVAL} = 5 min, {@code MAX_INTERVAL} = 1440 min], factor 1; W =
 * 0 gives the maximum.
 *
 * <p>W counts entries Miniflux stored, i.e. entries some fetch listed; it is taken here as the
 * entries published in the last week up to the fetch, which overstates W slightly for feeds that
 * overflowed their list. Pages have no entries: W = 0.
 */
public final class MinifluxEntryFrequencyPolicy implements SimPolicy {

  static final double MIN_MINUTES = 5;
  static final double MAX_MINUTES = 1440;
  static final int FACTOR = 1;

  private final Trace trace;
  private final ObserveMode mode;

  public MinifluxEntryFrequencyPolicy(Trace trace, ObserveMode mode) {
    this.trace = trace;
    this.mode = mode;
  }

  @Override
  public double onFetch(FetchObservation obs) {
    long weekly = 0;
    if (mode == ObserveMode.FEED) {
      int s = obs.source();
      weekly = trace.firstAfter(s, obs.now()) - trace.firstAfter(s, obs.now() - 7 * 86400L);
    }
    double minutes;
    if (weekly <= 0) {
      minutes = MAX_MINUTES;
    } else {
      minutes = Math.round(7.0 * 24 * 60 / (weekly * FACTOR));
      minutes = Math.max(MIN_MINUTES, Math.min(MAX_MINUTES, minutes));
    }
    return minutes * 60;
  }
}
