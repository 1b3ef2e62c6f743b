package io.freshet.kit.kafka;

import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaOperations;
import org.springframework.kafka.support.KafkaUtils;

/**
 * The one dead-letter publisher: sends a poison record, with its original key and bytes and the
 * {@link DeadLetter} headers, to the dead-letter topic of the consumer group that rejected it
 * ({@code <topic>.dlq.<group>}), and waits for the broker's acknowledgement — inside a listener's
 * Kafka transaction it joins that transaction. A failed send throws, so the record is not committed
 * and is retried as an outage.
 */
public class DeadLetterPublisher {

  private static final Logger log = LoggerFactory.getLogger(DeadLetterPublisher.class);

  private final KafkaOperations<String, byte[]> template;
  private final String defaultGroup;
  private final MeterRegistry meters;
  private final Duration sendTimeout;
  private final DeadLetterTopics topics;

  /**
   * @param template the producer (a transactional one joins the listener's transaction)
   * @param defaultGroup the group named when the calling thread is not a listener's ({@code
   *     spring.kafka.consumer.group-id})
   * @param meters where {@code freshet.dead.letters} is counted
   * @param sendTimeout how long to wait for the broker's acknowledgement
   * @param topics creates a dead-letter topic before its first letter
   */
  public DeadLetterPublisher(
      KafkaOperations<String, byte[]> template,
      String defaultGroup,
      MeterRegistry meters,
      Duration sendTimeout,
      DeadLetterTopics topics) {
    this.topics = topics;
    this.template = template;
    this.defaultGroup = defaultGroup;
    this.meters = meters;
    this.sendTimeout = sendTimeout;
  }

  /** Dead-letters {@code record} for the listener thread's consumer group. */
  public void publish(ConsumerRecord<String, byte[]> record, Throwable failure) {
    String group = KafkaUtils.getConsumerGroupId();
    publish(record, group == null ? defaultGroup : group, failure);
  }

  /** Dead-letters {@code record} for {@code group}. */
  public void publish(ConsumerRecord<String, byte[]> record, String group, Throwable failure) {
    var letter =
        new DeadLetter(
            record.topic(),
            record.partition(),
            record.offset(),
            record.timestamp(),
            group,
            failure);
    topics.ensure(letter.dlqTopic(), record.topic());
    var out =
        new ProducerRecord<>(
            letter.dlqTopic(),
            record.partition(), // created with the partitions of the topic it mirrors
            record.timestamp() < 0 ? null : record.timestamp(),
            record.key(),
            record.value(),
            letter.headers(record.headers()));
    try {
      template.send(out).get(sendTimeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("interrupted while dead-lettering to " + letter.dlqTopic(), e);
    } catch (ExecutionException | TimeoutException e) {
      throw new KafkaException(
          "cannot dead-letter to " + letter.dlqTopic() + ": " + Failures.reason(e), e);
    }
    meters.counter("freshet.dead.letters", "topic", record.topic(), "group", group).increment();
    log.warn(
        "dead-lettered {}-{}@{} to {}: {} at {}",
        record.topic(),
        record.partition(),
        record.offset(),
        letter.dlqTopic(),
        Failures.reason(failure),
        Failures.firstFrame(failure));
  }

  /** As a spring-kafka recoverer (the error handler's, for records of {@code <String, byte[]>}). */
  @SuppressWarnings("unchecked")
  public void recover(ConsumerRecord<?, ?> record, Exception failure) {
    publish((ConsumerRecord<String, byte[]>) record, failure);
  }
}
