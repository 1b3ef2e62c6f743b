package io.freshet.stats.state;

import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives a source's {@code SourceStats} from its {@link SourceState}. Deterministic: the same
 * state gives the same stats, whenever and wherever it is derived (the change rate is evaluated at
 * the state's last fetch, not at the wall clock), so a restarted or rebalanced instance emits
 * exactly what an uninterrupted one would.
 */
public final class StatsDeriver {

  private final StatsUpdater updater;

  public StatsDeriver(StatsUpdater updater) {
    this.updater = updater;
  }

  public SourceStats derive(String sourceId, SourceState state) {
    List<FetchSummary> window = state.window();
    long[] types = new long[SignalTypes.COUNT];
    long newItems = 0;
    List<Double> days = new ArrayList<>();
    for (FetchSummary f : window) {
      newItems += f.newItems();
      for (int t = 0; t < SignalTypes.COUNT; t++) {
        types[t] += f.typeCounts()[t];
      }
      for (double d : f.daysToEvent()) {
        days.add(d);
      }
    }
    Map<String, Long> typeCounts = new LinkedHashMap<>();
    SignalType dominant = null;
    long best = 0;
    for (int t = 0; t < SignalTypes.COUNT; t++) {
      if (types[t] > 0) {
        typeCounts.put(SignalTypes.at(t).name(), types[t]);
      }
      if (types[t] > best) { // strictly greater: ties go to the more time-sensitive type
        best = types[t];
        dominant = SignalTypes.at(t);
      }
    }
    List<Long> recent = state.recentPublished();
    Long interval =
        recent.size() >= 2 ? (recent.getFirst() - recent.getLast()) / (recent.size() - 1) : null;
    long at = state.updatedAt();
    return SourceStats.newBuilder()
        .setSourceId(sourceId)
        .setWindowFetches(window.size())
        .setAvgSignalYield(window.isEmpty() ? 0.0 : (double) newItems / window.size())
        .setDominantSignalType(dominant)
        .setTypeCounts(typeCounts)
        .setMedianDaysToEvent(median(days))
        .setPublishIntervalAvg(interval)
        .setRecentPublishedAt(recent.stream().map(Instant::ofEpochMilli).toList())
        .setConsecutiveMisses(state.consecutiveMisses())
        .setConsecutiveEmpty(state.consecutiveEmpty())
        .setChangeRate(changeRate(state, at))
        .setUpdatedAt(Instant.ofEpochMilli(at == SourceState.NEVER ? 0 : at))
        .setTenantId(state.tenantId())
        .build();
  }

  /**
   * With the {@code posterior} estimator, the rate derived at the state's last update (the
   * posterior mean under the population prior of that moment times the age hazard, {@link
   * RatePopulation}); else, or before one was derived, the tracker's estimate; 0 while there is no
   * evidence (the schema's "no estimate yet"), so that the scheduler falls back to its own
   * per-category prior instead of taking this app's configured prior for a measurement.
   */
  private double changeRate(SourceState state, long at) {
    if (updater.settings().rateModel().estimator() == StatsSettings.Estimator.POSTERIOR
        && state.changeRate() >= 0) {
      return state.changeRate();
    }
    var tracker = updater.tracker(state);
    return tracker.hasEvidence() ? tracker.rate(at == SourceState.NEVER ? 0 : at / 1000) : 0.0;
  }

  static Double median(List<Double> values) {
    if (values.isEmpty()) {
      return null;
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(v);
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }
}
