package io.freshet.scheduler.schedule;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.config.CadenceConfigParser;
import io.freshet.cadence.config.CadenceDefaults;
import io.freshet.scheduler.config.SchedulerProperties;
import java.time.Clock;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The cadence module, configured with the deployment's default cadence. */
@Configuration(proxyBeanMethods = false)
class CadenceConfig {

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
}
