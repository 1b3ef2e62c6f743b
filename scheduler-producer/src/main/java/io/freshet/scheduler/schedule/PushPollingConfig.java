package io.freshet.scheduler.schedule;

import io.freshet.scheduler.config.PushPollingProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Polling while push is live ({@link PushRules}), on the cadence model's clock. */
@Configuration(proxyBeanMethods = false)
class PushPollingConfig {

  @Bean
  PushRules pushRules(PushPollingProperties props, CadenceTimeScale time) {
    return new PushRules(props.safetyNetInterval(), time);
  }
}
