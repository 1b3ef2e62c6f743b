package io.freshet.sink.config;

import io.freshet.kit.kafka.ListenerFactories;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;

/**
 * The sink's listeners: batches on raw bytes, {@code listener-concurrency} consumers each. The
 * listeners dead-letter their own poison records (after storing the good ones of the batch); a
 * batch that fails as a whole (PostgreSQL or the broker down) is retried by the service kit's rule,
 * forever with capped backoff and nothing committed, while the consumer keeps polling (paused) and
 * so stays in its group.
 */
@Configuration(proxyBeanMethods = false)
class KafkaConfig {

  @Bean
  ConcurrentKafkaListenerContainerFactory<String, byte[]> batchListenerFactory(
      ListenerFactories factories, SinkProperties props) {
    return factories.batches(props.sink().listenerConcurrency());
  }
}
