package io.freshet.cadence.policy;

import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.cadence.config.CadenceSpec;

/** Builds the {@link CadencePolicy} of a {@link CadenceSpec}: one class per mode. */
public final class Policies {

  private Policies() {}

  /** The policy implementing {@code spec}, with {@code defaults} for what the spec leaves open. */
  public static CadencePolicy of(CadenceSpec spec, CadenceDefaults defaults) {
    return switch (spec) {
      case CadenceSpec.Always a -> new AlwaysPolicy(defaults.maxBackoff());
      case CadenceSpec.Interval i -> new IntervalPolicy(i.every(), defaults.maxBackoff());
      case CadenceSpec.Cron c -> new CronPolicy(c, defaults.maxBackoff());
      case CadenceSpec.FeedFrequency f -> new FeedFrequencyPolicy(f.defaultInterval());
      case CadenceSpec.SignalAdaptive s -> new SignalAdaptivePolicy(s, defaults.defaultCategory());
      case CadenceSpec.Adaptive a -> new AdaptivePolicy(a, defaults.defaultCategory());
    };
  }
}
