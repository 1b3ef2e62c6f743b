package io.freshet.scheduler.claims;

import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The claim path's beans (constructed explicitly so tests can build one against another broker).
 */
@Configuration(proxyBeanMethods = false)
class ClaimsConfig {

  @Bean
  FetchRequestPublisher fetchRequestPublisher(
      KafkaTemplate<String, byte[]> fetchRequestTemplate, FreshetTopics topics) {
    // The producer's own limit, however it was set (spring.kafka.producer.properties.*).
    Object limit =
        fetchRequestTemplate
            .getProducerFactory()
            .getConfigurationProperties()
            .getOrDefault(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_576);
    return new FetchRequestPublisher(
        fetchRequestTemplate, topics, Integer.parseInt(limit.toString()));
  }

  @Bean
  ClaimRound claimRound(
      ScheduleRepository schedule,
      NextDue nextDue,
      FetchRequestPublisher publisher,
      JdbcClient jdbc,
      TransactionTemplate tx,
      SchedulerProperties props,
      Clock clock,
      MeterRegistry meters) {
    return new ClaimRound(schedule, nextDue, publisher, jdbc, tx, props, clock, meters);
  }
}
