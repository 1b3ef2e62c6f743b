package io.freshet.scheduler.health;

import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The background-probed indicators, under the names the readiness group lists. */
@Configuration(proxyBeanMethods = false)
class HealthConfig {

  @Bean("database")
  HealthIndicator databaseHealth(ReadinessProbes probes) {
    return probes.database();
  }

  @Bean("broker")
  HealthIndicator brokerHealth(ReadinessProbes probes) {
    return probes.broker();
  }
}
