package io.freshet.scheduler.schedule;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceConfigParser;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.scheduler.config.SchedulerProperties;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The cadence module, configured with the deployment's default cadence. */
@Configuration(proxyBeanMethods = false)
class CadenceConfig {

  private static final Logger log = LoggerFactory.getLogger(CadenceConfig.class);

  @Bean
  @ConditionalOnMissingBean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  CadenceEngine cadenceEngine(SchedulerProperties props, Clock clock) {
    var standard = CadenceDefaults.standard();
    // Validated at start-up: a bad default cadence stops the service with the field's message.
    var defaultSpec = new CadenceConfigParser(standard).parse(props.defaultCadence());
    return new CadenceEngine(standard.withDefaultSpec(defaultSpec), clock);
  }

  /** The cadence model's clock (real time by default), validated at start-up. */
  @Bean
  CadenceTimeScale cadenceTimeScale(SchedulerProperties props, Clock clock) {
    SchedulerProperties.CadenceTime t = props.cadenceTime();
    String wallOrigin = t.wallOrigin() == null ? "" : t.wallOrigin();
    String modelOrigin = t.modelOrigin() == null ? "" : t.modelOrigin();
    if (t.scale() == 1.0 && wallOrigin.isBlank() && modelOrigin.isBlank()) {
      return CadenceTimeScale.identity();
    }
    if (props.budgetPerHour() > 0) {
      throw new IllegalStateException(
          "freshet.scheduler.cadence-time.scale cannot be combined with"
              + " freshet.scheduler.budget-per-hour: the budget counts wall-clock fetches");
    }
    Instant wall = instant("wall-origin", wallOrigin, clock.instant());
    Instant model = instant("model-origin", modelOrigin, wall);
    CadenceTimeScale scale = new CadenceTimeScale(t.scale(), wall, model);
    log.warn(
        "cadence runs on a scaled clock ({}): intervals are 1/{} of real time. Never in production",
        scale,
        t.scale());
    return scale;
  }

  private static Instant instant(String key, String value, Instant otherwise) {
    if (value.isBlank()) {
      return otherwise;
    }
    try {
      return Instant.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw new IllegalStateException(
          "freshet.scheduler.cadence-time."
              + key
              + " must be an ISO-8601 instant such as 2026-01-01T00:00:00Z, got '"
              + value
              + "'");
    }
  }
}
