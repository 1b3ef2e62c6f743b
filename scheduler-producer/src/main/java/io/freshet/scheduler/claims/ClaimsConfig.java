package io.freshet.scheduler.claims;

import io.freshet.schemas.topic.FreshetTopics;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * The request publisher, bound to the producer's own record-size limit (tests build their own
 * against another broker).
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
}
