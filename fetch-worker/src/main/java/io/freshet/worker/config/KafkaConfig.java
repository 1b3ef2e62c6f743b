package io.freshet.worker.config;

import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
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
import org.springframework.kafka.listener.ConsumerAwareRebalanceListener;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultAfterRollbackProcessor;
import org.springframework.kafka.listener.ListenerExecutionFailedException;
import org.springframework.kafka.support.KafkaHeaders;
import org.springframework.kafka.transaction.KafkaTransactionManager;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Kafka wiring (ADR 0004): a transactional producer shared by the outputs and the dead letters, and
 * a batch listener factory on raw bytes whose container runs each batch in a Kafka transaction and
 * sends its offsets to that transaction. Client settings come from {@code spring.kafka.*}; only
 * what the design requires (no auto-commit, read_committed, the transactional id) is set here. The
 * factories are built here but get what Spring Boot gives its own ({@code
 * Default*FactoryCustomizer} beans): Micrometer's Kafka client metrics, consumer lag ({@code
 * kafka.consumer.fetch.manager.records.lag}) among them.
 */
@Configuration(proxyBeanMethods = false)
class KafkaConfig {

  @Bean
  FreshetTopics freshetTopics(WorkerProperties props) {
    var kafka = props.kafka();
    return FreshetTopics.create(
        RegistrySettings.of(kafka.registryUrl(), kafka.autoRegister()), kafka.partitions());
  }

  @Bean
  KafkaAdmin.NewTopics freshetNewTopics(FreshetTopics topics, WorkerProperties props) {
    var kafka = props.kafka();
    if (!kafka.createTopics()) {
      return new KafkaAdmin.NewTopics();
    }
    short rf = kafka.replicationFactor();
    int minIsr = kafka.minInsyncReplicas();
    return new KafkaAdmin.NewTopics(
        Stream.of(
                topics.fetchRequested().newTopic(rf, minIsr),
                topics.fetchRequested().newDlqTopic(rf, minIsr),
                topics.contentFetched().newTopic(rf, minIsr),
                topics.fetchCompleted().newTopic(rf, minIsr))
            .toArray(NewTopic[]::new));
  }

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

  /**
   * Dead letters: the record's original key and bytes plus the {@code kafka_dlt-*} headers, the
   * consumer group included.
   */
  @Bean
  DeadLetterPublishingRecoverer deadLetterRecoverer(
      KafkaTemplate<String, byte[]> outputTemplate, KafkaProperties kafka) {
    var recoverer =
        new DeadLetterPublishingRecoverer(
            outputTemplate,
            (record, e) ->
                new TopicPartition(record.topic() + Topic.DLQ_SUFFIX, record.partition()));
    // The listener publishes its dead letters itself, not through an error handler, so
    // spring-kafka cannot name the consumer group: name it here, as every Freshet service's dead
    // letters do (a DLQ may be shared by several consumers of its topic).
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
   * Batch listeners on raw bytes, one consumer thread per {@code freshet.worker.consumers}, each
   * batch in a transaction. A failed batch (broker or registry down) is aborted and retried at the
   * configured interval until it succeeds; nothing of it is visible meanwhile.
   */
  @Bean
  ConcurrentKafkaListenerContainerFactory<String, byte[]> fetchRequestListenerFactory(
      KafkaProperties kafka,
      WorkerProperties props,
      KafkaTransactionManager<String, byte[]> kafkaTransactionManager,
      ConsumerAwareRebalanceListener crashGuard,
      ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
    Map<String, Object> config = new HashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    var consumerFactory =
        new DefaultKafkaConsumerFactory<>(
            config, new StringDeserializer(), new ByteArrayDeserializer());
    customizers.orderedStream().forEach(c -> c.customize(consumerFactory));
    var factory = new ConcurrentKafkaListenerContainerFactory<String, byte[]>();
    factory.setConsumerFactory(consumerFactory);
    factory.setBatchListener(true);
    factory.setConcurrency(props.worker().consumers());
    factory.getContainerProperties().setKafkaAwareTransactionManager(kafkaTransactionManager);
    // Reads each assigned partition's crash marker (the listener's CrashGuard).
    factory.getContainerProperties().setConsumerRebalanceListener(crashGuard);
    factory.setAfterRollbackProcessor(
        new DefaultAfterRollbackProcessor<>(
            new FixedBackOff(
                props.worker().infrastructureRetryInterval().toMillis(),
                FixedBackOff.UNLIMITED_ATTEMPTS)));
    return factory;
  }
}
