package io.freshet.scheduler.config;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How polling relaxes while a source's WebSub subscription is live ({@code
 * freshet.scheduler.push.*}; ADR 0015).
 *
 * @param safetyNetInterval while push is live, a successful poll schedules the next one this long
 *     after it (in cadence-model time, like every cadence interval: on the local demo's scaled
 *     clock a model day is a wall minute), never sooner than the cadence itself would, and never
 *     after the subscription's lease ends
 */
@Validated
@ConfigurationProperties("freshet.scheduler.push")
public record PushPollingProperties(@NotNull @DefaultValue("24h") Duration safetyNetInterval) {

  public PushPollingProperties {
    if (safetyNetInterval != null
        && (safetyNetInterval.isNegative() || safetyNetInterval.isZero())) {
      throw new IllegalArgumentException(
          "freshet.scheduler.push.safety-net-interval must be positive, got " + safetyNetInterval);
    }
  }
}
