package io.freshet.cadence.policy;

import io.freshet.cadence.source.SourceSnapshot;

/**
 * How much a source's freshness matters, for {@code adaptive}: the factors of ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md) turned from interval
 * multipliers into weights of the objective, w = 1 / (yield × type × urgency). An event calendar
 * with events next week weighs 2 × 2 = 4, an informative page without dates 2/3.
 *
 * <p>Weights, not multipliers, because the allocation then trades them against the change rate and
 * the budget: under the square-root rule a weight of 4 doubles a source's fetch rate instead of
 * quartering its interval regardless of how often it changes.
 */
public final class ImportanceWeights {

  private ImportanceWeights() {}

  /** The importance weight of {@code source} (1 = ordinary). */
  public static double of(SourceSnapshot source) {
    return 1.0
        / (SignalFactors.yieldFactor(source.avgSignalYield())
            * SignalFactors.typeFactor(source.dominantSignalType())
            * SignalFactors.urgencyFactor(source.medianDaysToEvent()));
  }
}
