package io.freshet.kit.kafka;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.listener.BatchInterceptor;
import org.springframework.kafka.listener.DefaultAfterRollbackProcessor;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.kafka.support.KafkaUtils;
import org.springframework.kafka.transaction.KafkaAwareTransactionManager;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;
import org.springframework.util.backoff.FixedBackOff;

/**
 * The listener container factories every Freshet consumer uses, on raw bytes (the listener decodes,
 * so a dead letter keeps the original bytes). Invariants, not tuning, set here whatever {@code
 * spring.kafka.consumer.*} says: {@code read_committed} (the worker and the stats-aggregator write
 * in transactions, and what an aborted one wrote never happened) and no auto-commit. Everything
 * else comes from {@code spring.kafka.consumer.*} and Spring Boot's customizers (client metrics).
 *
 * <p>Failures follow {@link Failures}' one rule: an outage is retried with capped exponential
 * backoff forever, nothing committed, logged once ({@link Outage}); a poison record goes to its
 * group's dead-letter topic at once ({@link DeadLetterPublisher}). A batch listener names its
 * poison record by throwing spring-kafka's {@code BatchListenerFailedException}, or dead-letters it
 * itself and stores the rest; a batch failing as a whole is retried as an outage.
 *
 * <p>A record re-driven from a dead-letter topic carries {@link DeadLetter#REDRIVE_GROUP}: every
 * other consumer group of the topic skips it.
 */
public class ListenerFactories {

  private final KafkaProperties kafka;
  private final ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers;
  private final DeadLetterPublisher deadLetters;
  private final Outage outage;
  private final KafkaSettings settings;

  public ListenerFactories(
      KafkaProperties kafka,
      ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
      DeadLetterPublisher deadLetters,
      Outage outage,
      KafkaSettings settings) {
    this.kafka = kafka;
    this.customizers = customizers;
    this.deadLetters = deadLetters;
    this.outage = outage;
    this.settings = settings;
  }

  /** One record per listener call. */
  public ConcurrentKafkaListenerContainerFactory<String, byte[]> records(int concurrency) {
    var factory = base(concurrency);
    factory.setCommonErrorHandler(errorHandler());
    factory.setRecordInterceptor(
        new RecordInterceptor<>() {
          @Override
          public ConsumerRecord<String, byte[]> intercept(
              ConsumerRecord<String, byte[]> record, Consumer<String, byte[]> consumer) {
            return isForAnotherGroup(record) ? null : record;
          }

          @Override
          public void success(
              ConsumerRecord<String, byte[]> record, Consumer<String, byte[]> consumer) {
            outage.succeeded();
          }
        });
    return factory;
  }

  /** A poll's records per listener call. */
  public ConcurrentKafkaListenerContainerFactory<String, byte[]> batches(int concurrency) {
    var factory = base(concurrency);
    factory.setBatchListener(true);
    factory.setCommonErrorHandler(errorHandler());
    factory.setBatchInterceptor(batchInterceptor());
    return factory;
  }

  /**
   * A poll's records per listener call, each poll in a Kafka transaction of {@code transactions}'
   * producer that also commits the poll's offsets: the listener's outputs and its progress are
   * committed together or not at all. A failed poll is aborted and retried as an outage; the
   * listener dead-letters its own poison records (in the same transaction).
   */
  public ConcurrentKafkaListenerContainerFactory<String, byte[]> transactionalBatches(
      int concurrency, KafkaAwareTransactionManager<?, ?> transactions) {
    var factory = base(concurrency);
    factory.setBatchListener(true);
    factory.getContainerProperties().setKafkaAwareTransactionManager(transactions);
    var rollback = new DefaultAfterRollbackProcessor<String, byte[]>(outageBackOff());
    rollback.setRetryListeners(retryListener());
    factory.setAfterRollbackProcessor(rollback);
    factory.setBatchInterceptor(batchInterceptor());
    return factory;
  }

  /** The consumer factory under every container: raw bytes, read committed, no auto-commit. */
  public DefaultKafkaConsumerFactory<String, byte[]> consumerFactory() {
    Map<String, Object> config = new HashMap<>(kafka.buildConsumerProperties());
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    var factory =
        new DefaultKafkaConsumerFactory<>(
            config, new StringDeserializer(), new ByteArrayDeserializer());
    customizers.orderedStream().forEach(c -> c.customize(factory));
    return factory;
  }

  private ConcurrentKafkaListenerContainerFactory<String, byte[]> base(int concurrency) {
    var factory = new ConcurrentKafkaListenerContainerFactory<String, byte[]>();
    factory.setConsumerFactory(consumerFactory());
    factory.setConcurrency(concurrency);
    return factory;
  }

  /**
   * Poison: dead-lettered at the first failure. Outage: retried forever. A whole batch that fails
   * (no record named) is retried with the outage backoff too: it cannot be told from an outage of
   * the statement that stores it, and retrying loses nothing.
   */
  private DefaultErrorHandler errorHandler() {
    var handler = new DefaultErrorHandler(deadLetters::recover, outageBackOff());
    handler.setBackOffFunction((record, e) -> Failures.isOutage(e) ? null : new FixedBackOff(0, 0));
    handler.setRetryListeners(retryListener());
    return handler;
  }

  private RetryListener retryListener() {
    return new RetryListener() {
      @Override
      public void failedDelivery(ConsumerRecord<?, ?> record, Exception e, int attempt) {
        if (Failures.isOutage(e)) {
          outage.failed(e);
        }
      }

      @Override
      public void failedDelivery(ConsumerRecords<?, ?> records, Exception e, int attempt) {
        outage.failed(e);
      }
    };
  }

  private BatchInterceptor<String, byte[]> batchInterceptor() {
    return new BatchInterceptor<>() {
      @Override
      public ConsumerRecords<String, byte[]> intercept(
          ConsumerRecords<String, byte[]> records, Consumer<String, byte[]> consumer) {
        boolean any = false;
        for (var r : records) {
          if (isForAnotherGroup(r)) {
            any = true;
            break;
          }
        }
        if (!any) {
          return records;
        }
        Map<org.apache.kafka.common.TopicPartition, java.util.List<ConsumerRecord<String, byte[]>>>
            kept = new HashMap<>();
        for (var tp : records.partitions()) {
          var list = new java.util.ArrayList<ConsumerRecord<String, byte[]>>();
          for (var r : records.records(tp)) {
            if (!isForAnotherGroup(r)) {
              list.add(r);
            }
          }
          kept.put(tp, list);
        }
        return new ConsumerRecords<>(kept, records.nextOffsets());
      }

      @Override
      public void success(
          ConsumerRecords<String, byte[]> records, Consumer<String, byte[]> consumer) {
        outage.succeeded();
      }
    };
  }

  /** Capped exponential backoff, forever. */
  BackOff outageBackOff() {
    var backOff = new ExponentialBackOff(settings.outageRetry().initial().toMillis(), 2.0);
    backOff.setMaxInterval(settings.outageRetry().max().toMillis());
    return backOff;
  }

  private static boolean isForAnotherGroup(ConsumerRecord<?, ?> record) {
    String target = DeadLetter.text(record.headers(), DeadLetter.REDRIVE_GROUP);
    return target != null && !target.equals(KafkaUtils.getConsumerGroupId());
  }
}
