package io.freshet.scheduler.config;

import io.freshet.kit.kafka.ListenerFactories;
import io.freshet.schemas.topic.FreshetTopics;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.ProducerFactory;

/**
 * The scheduler's own Kafka wiring: the idempotent acks=all producer of FetchRequested, the batch
 * listeners of FetchCompleted and SourceStats and the record listener of PushReceived. Topics, dead
 * letters, read_committed and the poison-or-outage rule come from the service kit ({@link
 * ListenerFactories}).
 */
@Configuration(proxyBeanMethods = false)
class KafkaConfig {

  @Bean
  ProducerFactory<String, byte[]> fetchRequestProducerFactory(
      KafkaProperties kafka,
      FreshetTopics topics,
      SchedulerProperties scheduler,
      ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
    Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
    // Invariants of the claim protocol, not tuning: a claim commits only after every request is
    // durably acknowledged, and a retried send must not duplicate. The rest (linger, compression,
    // request timeout...) comes from spring.kafka.producer.* in application.yml, so the
    // environment can change it.
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    // A claim waits at most send-timeout for its acks, so by default the producer gives up no
    // later (unless these are set explicitly).
    int sendTimeoutMs = (int) Math.max(15_000, scheduler.sendTimeout().toMillis());
    config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, sendTimeoutMs);
    config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, sendTimeoutMs);
    // Values are serialised by FetchRequestPublisher, per source, before anything is sent.
    var factory =
        new DefaultKafkaProducerFactory<>(
            config, topics.fetchRequested().keySerde().serializer(), new ByteArraySerializer());
    customizers.orderedStream().forEach(c -> c.customize(factory));
    return factory;
  }

  @Bean
  KafkaTemplate<String, byte[]> fetchRequestTemplate(ProducerFactory<String, byte[]> factory) {
    return new KafkaTemplate<>(factory);
  }

  /**
   * A poll's records per call: the outcomes, stats and push events of a poll are applied in one
   * transaction of a few statements (the listeners decode, so a dead letter keeps the original
   * bytes, and dead-letter their own poison records after storing the rest).
   */
  @Bean
  ConcurrentKafkaListenerContainerFactory<String, byte[]> batchListenerFactory(
      ListenerFactories factories) {
    return factories.batches(1);
  }
}
