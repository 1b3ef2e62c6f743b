package io.freshet.cadence.policy;

import io.freshet.cadence.source.SignalType;

/**
 * The multiplier table of ADR 0010
 * (docs/adr/0010-signal-adaptive-cadence-and-its-multiplier-table.md), shared by {@code
 * signal_adaptive} (as multipliers of the interval) and {@code adaptive} (inverted, as importance
 * weights).
 *
 * <table>
 *   <caption>Multipliers</caption>
 *   <tr><th>factor</th><th>condition</th><th>multiplier</th></tr>
 *   <tr><td>yield</td><td>3+ signals per fetch</td><td>0.5</td></tr>
 *   <tr><td>yield</td><td>fewer (1–2; 0 is left to the miss backoff)</td><td>1.0</td></tr>
 *   <tr><td>type</td><td>mostly event / ask</td><td>0.5</td></tr>
 *   <tr><td>type</td><td>mostly give</td><td>0.75</td></tr>
 *   <tr><td>type</td><td>mostly informative, or unknown</td><td>1.0</td></tr>
 *   <tr><td>urgency</td><td>median &lt; 7 days to event</td><td>0.5</td></tr>
 *   <tr><td>urgency</td><td>median 7–30 days</td><td>1.0</td></tr>
 *   <tr><td>urgency</td><td>no dates, or median &gt; 30 days</td><td>1.5</td></tr>
 * </table>
 */
public final class SignalFactors {

  private SignalFactors() {}

  /** Yield multiplier from new signals per fetch (null = unknown → 1.0). */
  public static double yieldFactor(Double signalsPerFetch) {
    return signalsPerFetch != null && signalsPerFetch >= 3.0 ? 0.5 : 1.0;
  }

  /** Type multiplier from the dominant signal type (null = unknown → 1.0). */
  public static double typeFactor(SignalType dominant) {
    if (dominant == null) {
      return 1.0;
    }
    return switch (dominant) {
      case EVENT, ASK -> 0.5;
      case GIVE -> 0.75;
      case INFORMATIVE -> 1.0;
    };
  }

  /** Urgency multiplier from the median days to the items' events (null = no dates → 1.5). */
  public static double urgencyFactor(Double medianDaysToEvent) {
    if (medianDaysToEvent == null || medianDaysToEvent > 30.0) {
      return 1.5;
    }
    return medianDaysToEvent < 7.0 ? 0.5 : 1.0;
  }
}
