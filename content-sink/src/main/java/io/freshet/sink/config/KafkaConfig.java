package io.freshet.sink.config;

import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Kafka wiring: topic descriptors bound to the registry, a batch listener factory on raw bytes (the
 * listener decodes, so a dead letter keeps the original bytes), the dead-letter publisher. Client
 * settings come from {@code spring.kafka.*} only. The factories are built here but get what Spring
 * Boot gives its own ({@code Default*FactoryCustomizer} beans): Micrometer's Kafka client metrics,
 * consumer lag ({@code kafka.consumer.fetch.manager.records.lag}) among them.
 */
@Configuration(proxyBeanMethods = false)
class KafkaConfig {

  private static final Logger log = LoggerFactory.getLogger(KafkaConfig.class);

  @Bean
  FreshetTopics freshetTopics(SinkProperties props) {
    var kafka = props.kafka();
    return FreshetTopics.create(
        RegistrySettings.of(kafka.registryUrl(), kafka.autoRegister()), kafka.partitions());
  }

  @Bean
  KafkaAdmin.NewTopics freshetNewTopics(FreshetTopics topics, SinkProperties props) {
    var kafka = props.kafka();
    if (!kafka.createTopics()) {
      return new KafkaAdmin.NewTopics();
    }
    return new KafkaAdmin.NewTopics(
        Stream.of(topics.contentFetched(), topics.fetchCompleted())
            .flatMap(
                t ->
                    Stream.of(
                        t.newTopic(kafka.replicationFactor(), kafka.minInsyncReplicas()),
                        t.newDlqTopic(kafka.replicationFactor(), kafka.minInsyncReplicas())))
            .toArray(NewTopic[]::new));
  }

  /**
   * Dead letters: the record's original key and bytes plus the {@code kafka_dlt-*} headers, the
   * consumer group included.
   */
  @Bean
  DeadLetterPublishingRecoverer deadLetterRecoverer(
      KafkaProperties kafka, ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
    var producerFactory =
        new DefaultKafkaProducerFactory<>(
            kafka.buildProducerProperties(), new StringSerializer(), new ByteArraySerializer());
    customizers.orderedStream().forEach(c -> c.customize(producerFactory));
    var template = new KafkaTemplate<>(producerFactory);
    var recoverer =
        new DeadLetterPublishingRecoverer(
            template,
            (record, e) ->
                new TopicPartition(record.topic() + Topic.DLQ_SUFFIX, record.partition()));
    // The listener publishes its dead letters itself, not through an error handler, so
    // spring-kafka cannot name the consumer group: name it here, as the other services' dead
    // letters do (three services share freshet.fetch.completed.v1.dlq).
    String group = kafka.getConsumer().getGroupId();
    recoverer.setHeadersFunction(
        (record, e) ->
            group == null || e instanceof ListenerExecutionFailedException
                ? null
                : new RecordHeaders()
                    .add(
                        KafkaHeaders.DLT_ORIGINAL_CONSUMER_GROUP,
                        group.getBytes(StandardCharsets.UTF_8)));
    return recoverer;
  }

  /**
   * Batch listeners on raw bytes. Poison records are dead-lettered by the listener itself; what
   * reaches the error handler is an infrastructure failure (PostgreSQL or broker down), so the
   * whole batch is retried at the configured interval, forever, with nothing committed: the
   * consumer keeps polling (paused) meanwhile, so it stays in its group.
   */
  @Bean
  ConcurrentKafkaListenerContainerFactory<String, byte[]> batchListenerFactory(
      KafkaProperties kafka,
      SinkProperties props,
      ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
    var consumerFactory =
        new DefaultKafkaConsumerFactory<>(
            kafka.buildConsumerProperties(), new StringDeserializer(), new ByteArrayDeserializer());
    customizers.orderedStream().forEach(c -> c.customize(consumerFactory));
    var factory = new ConcurrentKafkaListenerContainerFactory<String, byte[]>();
    factory.setConsumerFactory(consumerFactory);
    factory.setBatchListener(true);
    factory.setConcurrency(props.sink().listenerConcurrency());
    var handler =
        new DefaultErrorHandler(
            (record, e) -> {
              throw new IllegalStateException("unreachable: batches are retried forever", e);
            },
            new FixedBackOff(
                props.sink().infrastructureRetryInterval().toMillis(),
                FixedBackOff.UNLIMITED_ATTEMPTS));
    handler.setRetryListeners(
        new RetryListener() {
          @Override
          public void failedDelivery(ConsumerRecord<?, ?> record, Exception e, int attempt) {
            logFailure(e, attempt);
          }

          @Override
          public void failedDelivery(ConsumerRecords<?, ?> records, Exception e, int attempt) {
            logFailure(e, attempt);
          }
        });
    factory.setCommonErrorHandler(handler);
    return factory;
  }

  // One line at the start of an outage and one a minute or so after, not a stack trace per retry.
  private static void logFailure(Exception e, int attempt) {
    if (attempt == 1 || attempt % 30 == 0) {
      log.warn("batch not stored (attempt {}), retrying: {}", attempt, rootMessage(e));
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
