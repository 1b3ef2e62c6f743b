package io.freshet.worker.config;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.kit.kafka.DeadLetterTopics;
import io.freshet.kit.kafka.KafkaSettings;
import io.freshet.kit.kafka.ListenerFactories;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.transaction.KafkaTransactionManager;

/**
 * The worker's own Kafka wiring (ADR 0004): one transactional producer for the outputs and the dead
 * letters, and a batch listener whose container runs each batch in a transaction of that producer
 * and sends its offsets to it. Topics, read_committed and the outage rule come from the service kit
 * ({@link ListenerFactories}).
 */
@Configuration(proxyBeanMethods = false)
class KafkaConfig {

  /**
   * The transactional producer. Its transactional-id prefix must differ between live instances
   * (else they fence each other): the configured one, or a random one per start.
   */
  @Bean
  DefaultKafkaProducerFactory<String, byte[]> outputProducerFactory(
      KafkaProperties kafka,
      WorkerProperties props,
      ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
    var factory =
        new DefaultKafkaProducerFactory<>(
            kafka.buildProducerProperties(), new StringSerializer(), new ByteArraySerializer());
    customizers.orderedStream().forEach(c -> c.customize(factory));
    String prefix = props.worker().transactionIdPrefix();
    factory.setTransactionIdPrefix(
        prefix.isBlank()
            ? "freshet-fetch-worker-" + UUID.randomUUID().toString().substring(0, 8) + "-"
            : prefix);
    return factory;
  }

  @Bean
  KafkaTemplate<String, byte[]> outputTemplate(
      DefaultKafkaProducerFactory<String, byte[]> outputProducerFactory) {
    return new KafkaTemplate<>(outputProducerFactory);
  }

  @Bean
  KafkaTransactionManager<String, byte[]> kafkaTransactionManager(
      DefaultKafkaProducerFactory<String, byte[]> outputProducerFactory) {
    return new KafkaTransactionManager<>(outputProducerFactory);
  }

  /** Dead letters through the transactional producer: they commit with the batch or not at all. */
  @Bean
  DeadLetterPublisher deadLetterPublisher(
      KafkaTemplate<String, byte[]> outputTemplate,
      KafkaProperties kafka,
      MeterRegistry meters,
      KafkaSettings settings,
      DeadLetterTopics topics) {
    return new DeadLetterPublisher(
        outputTemplate,
        kafka.getConsumer().getGroupId(),
        meters,
        settings.deadLetterTimeout(),
        topics);
  }

  /**
   * Batch listeners on raw bytes, one consumer thread per {@code freshet.worker.consumers}, each
   * batch in a transaction; the crash guard reads each assigned partition's crash marker.
   */
  @Bean
  ConcurrentKafkaListenerContainerFactory<String, byte[]> fetchRequestListenerFactory(
      ListenerFactories factories,
      WorkerProperties props,
      KafkaTransactionManager<String, byte[]> kafkaTransactionManager,
      ConsumerAwareRebalanceListener crashGuard) {
    var factory =
        factories.transactionalBatches(props.worker().consumers(), kafkaTransactionManager);
    factory.getContainerProperties().setConsumerRebalanceListener(crashGuard);
    return factory;
  }
}
