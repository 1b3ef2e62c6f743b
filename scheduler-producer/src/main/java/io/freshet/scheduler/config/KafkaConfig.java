package io.freshet.scheduler.config;

import io.freshet.schemas.serde.PoisonRecordException;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
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
import org.springframework.kafka.core.ProducerFactory;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Kafka wiring: Freshet's topic descriptors bound to the registry, an idempotent acks=all producer
 * for FetchRequested, read_committed listener factories whose poison records go to the topic's DLQ.
 * The factories are built here but get what Spring Boot gives its own ({@code
 * Default*FactoryCustomizer} beans): Micrometer's Kafka client metrics, consumer lag ({@code
 * kafka.consumer.fetch.manager.records.lag}) among them.
 */
@Configuration(proxyBeanMethods = false)
class KafkaConfig {

  @Bean
  FreshetTopics freshetTopics(KafkaTopicsProperties props) {
    return FreshetTopics.create(
        RegistrySettings.of(props.registryUrl(), props.autoRegister()), props.partitions());
  }

  @Bean
  KafkaAdmin.NewTopics freshetNewTopics(FreshetTopics topics, KafkaTopicsProperties props) {
    if (!props.createTopics()) {
      return new KafkaAdmin.NewTopics();
    }
    return new KafkaAdmin.NewTopics(
        topics.all().stream()
            .flatMap(
                t ->
                    java.util.stream.Stream.of(
                        t.newTopic(props.replicationFactor(), props.minInsyncReplicas()),
                        t.newDlqTopic(props.replicationFactor(), props.minInsyncReplicas())))
            .toArray(NewTopic[]::new));
  }

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

  /** Producer for dead letters: the record's original key and bytes plus the failure headers. */
  @Bean
  KafkaTemplate<String, byte[]> deadLetterTemplate(
      KafkaProperties kafka, ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
    var factory =
        new DefaultKafkaProducerFactory<>(
            kafka.buildProducerProperties(), new StringSerializer(), new ByteArraySerializer());
    customizers.orderedStream().forEach(c -> c.customize(factory));
    return new KafkaTemplate<>(factory);
  }

  @Bean
  DefaultErrorHandler deadLetterErrorHandler(
      KafkaTemplate<String, byte[]> deadLetterTemplate,
      io.micrometer.core.instrument.MeterRegistry meters) {
    var recoverer =
        new DeadLetterPublishingRecoverer(
            deadLetterTemplate,
            (record, e) -> {
              meters.counter("freshet.scheduler.dead.letters", "topic", record.topic()).increment();
              return new org.apache.kafka.common.TopicPartition(
                  record.topic() + Topic.DLQ_SUFFIX, record.partition());
            });
    // A record that cannot be decoded or names no valid source (PoisonRecordException) goes to
    // the DLQ at once, with the reason in its headers. Database and other infrastructure failures
    // are not the record's fault: the listener pauses and retries it until the database is back,
    // so nothing is lost. Anything else is retried three times, then dead-lettered.
    var handler = new DefaultErrorHandler(recoverer, new FixedBackOff(2_000L, 3));
    handler.addNotRetryableExceptions(PoisonRecordException.class);
    handler.setBackOffFunction(
        (record, e) ->
            isInfrastructure(e) ? new FixedBackOff(2_000L, FixedBackOff.UNLIMITED_ATTEMPTS) : null);
    return handler;
  }

  private static boolean isInfrastructure(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof org.springframework.dao.DataAccessResourceFailureException
          || t instanceof org.springframework.dao.TransientDataAccessException
          || t instanceof org.springframework.transaction.CannotCreateTransactionException
          || t instanceof java.sql.SQLTransientException
          || t instanceof java.sql.SQLRecoverableException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Listeners receive the raw bytes and decode them themselves ({@link RecordDecoder}), so that
   * whatever fails — decoding or processing — the DLQ gets the original bytes.
   */
  @Bean
  ConcurrentKafkaListenerContainerFactory<String, byte[]> rawListenerFactory(
      KafkaProperties kafka,
      DefaultErrorHandler errorHandler,
      ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers) {
    Map<String, Object> config = new HashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    // An invariant, not tuning: the fetch-worker and the stats-aggregator write in Kafka
    // transactions, and what an aborted one wrote never happened. Read uncommitted, an aborted
    // attempt's FetchCompleted could answer the claim (its cursor naming items never emitted) and
    // the committed retry of the same epoch would be ignored as already answered.
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    var consumerFactory =
        new DefaultKafkaConsumerFactory<>(
            config, new StringDeserializer(), new ByteArrayDeserializer());
    customizers.orderedStream().forEach(c -> c.customize(consumerFactory));
    var factory = new ConcurrentKafkaListenerContainerFactory<String, byte[]>();
    factory.setConsumerFactory(consumerFactory);
    factory.setCommonErrorHandler(errorHandler);
    return factory;
  }
}
