package io.freshet.cadence.policy;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.budget.Demand;
import io.freshet.cadence.config.CadenceSpec;
import io.freshet.cadence.source.Category;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;

/**
 * The {@code compute_cadence} of ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md), exactly:
 *
 * <pre>
 * effective = base(category) × yield × type × urgency × backoff(consecutive_misses)
 * clamped to [floor, ceiling(category)]
 * </pre>
 *
 * with the multipliers of {@link SignalFactors} and {@link Backoff#factor}. Bases, floors and
 * ceilings are {@link Category}'s. Cold start: until the source has {@code cold_start_fetches}
 * fetches in its stats window the multipliers are not trusted and the base applies (backoff still
 * does). Budget compression stretches the clamped result; a global budget outranks the ceiling.
 */
public final class SignalAdaptivePolicy implements CadencePolicy {

  private final CadenceSpec.SignalAdaptive spec;
  private final Category fallbackCategory;

  public SignalAdaptivePolicy(CadenceSpec.SignalAdaptive spec, Category fallbackCategory) {
    this.spec = spec;
    this.fallbackCategory = fallbackCategory;
  }

  /** The effective cadence of ADR 0010, before budget compression. */
  public Duration effectiveCadence(SourceSnapshot source) {
    Category category = category(source);
    double multiplier = Backoff.factor(source.consecutiveMisses());
    if (source.windowFetches() >= spec.coldStartFetches()) {
      multiplier *=
          SignalFactors.yieldFactor(source.avgSignalYield())
              * SignalFactors.typeFactor(source.dominantSignalType())
              * SignalFactors.urgencyFactor(source.medianDaysToEvent());
    }
    Duration raw = Durations.times(category.base(), multiplier);
    return Durations.clamp(raw, floor(category), category.ceiling());
  }

  @Override
  public Instant nextDue(SourceSnapshot source, Instant reference, Instant now, BudgetPlan plan) {
    Duration cadence = effectiveCadence(source);
    if (source.consecutiveMisses() == 0) {
      cadence = Durations.times(cadence, plan.compression());
    }
    return reference.plus(cadence);
  }

  @Override
  public Demand demand(SourceSnapshot source, Instant now) {
    return new Demand.Fixed(1.0 / Durations.hours(effectiveCadence(source)));
  }

  private Category category(SourceSnapshot source) {
    if (spec.category() != null) {
      return spec.category();
    }
    return source.category() != null ? source.category() : fallbackCategory;
  }

  private Duration floor(Category category) {
    Duration floor = spec.floor() != null ? spec.floor() : category.floor();
    // A floor above the ceiling would invert the clamp; the ceiling wins.
    return floor.compareTo(category.ceiling()) > 0 ? category.ceiling() : floor;
  }
}
