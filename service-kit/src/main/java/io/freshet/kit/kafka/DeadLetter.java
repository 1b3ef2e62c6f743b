package io.freshet.kit.kafka;

import io.freshet.schemas.topic.Topic;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * What a dead letter carries, the same for every consumer (listener containers and the Streams
 * topology alike): the record's original key and bytes and headers, plus the {@code kafka_dlt-*}
 * headers that say where it came from, which consumer group rejected it, why and where in the code.
 * The header names are spring-kafka's, so its tools and the team's read them alike.
 *
 * @param topic the topic the record was read from
 * @param partition its partition
 * @param offset its offset
 * @param timestamp its timestamp (epoch ms)
 * @param group the consumer group (or Streams application id) that rejected it
 * @param failure why
 */
public record DeadLetter(
    String topic, int partition, long offset, long timestamp, String group, Throwable failure) {

  public static final String ORIGINAL_TOPIC = "kafka_dlt-original-topic";
  public static final String ORIGINAL_PARTITION = "kafka_dlt-original-partition";
  public static final String ORIGINAL_OFFSET = "kafka_dlt-original-offset";
  public static final String ORIGINAL_TIMESTAMP = "kafka_dlt-original-timestamp";
  public static final String GROUP = "kafka_dlt-original-consumer-group";
  public static final String EXCEPTION_CLASS = "kafka_dlt-exception-fqcn";
  public static final String REASON = "kafka_dlt-exception-message";
  public static final String FIRST_FRAME = "kafka_dlt-exception-stacktrace";

  /**
   * Set on a record re-driven from a dead-letter topic to its original topic: only the consumer
   * group it names processes it; the topic's other consumers (which did not fail) skip it.
   */
  public static final String REDRIVE_GROUP = "freshet-redrive-group";

  /** The dead-letter topic this letter goes to: its group's own. */
  public String dlqTopic() {
    return Topic.dlqName(topic, group);
  }

  /**
   * The headers of the dead letter: the record's own (any earlier {@code kafka_dlt-*} or re-drive
   * header dropped, so a letter dead again after a re-drive says only what happened last) and this
   * failure's.
   */
  public Headers headers(Headers original) {
    var headers = ownHeaders(original);
    headers.add(ORIGINAL_TOPIC, utf8(topic));
    headers.add(ORIGINAL_PARTITION, ByteBuffer.allocate(4).putInt(partition).array());
    headers.add(ORIGINAL_OFFSET, ByteBuffer.allocate(8).putLong(offset).array());
    headers.add(ORIGINAL_TIMESTAMP, ByteBuffer.allocate(8).putLong(timestamp).array());
    headers.add(GROUP, utf8(group));
    headers.add(EXCEPTION_CLASS, utf8(Failures.rootCause(failure).getClass().getName()));
    headers.add(REASON, utf8(Failures.reason(failure)));
    headers.add(FIRST_FRAME, utf8(Failures.firstFrame(failure)));
    return headers;
  }

  /**
   * A record's own headers: without any {@code kafka_dlt-*} or re-drive header, which say what
   * happened to it, not what it is.
   */
  public static RecordHeaders ownHeaders(Headers headers) {
    var own = new RecordHeaders();
    if (headers != null) {
      for (Header h : headers) {
        if (!h.key().startsWith("kafka_dlt-") && !h.key().equals(REDRIVE_GROUP)) {
          own.add(h);
        }
      }
    }
    return own;
  }

  /** A header's value as text (UTF-8), or null when absent. */
  public static String text(Headers headers, String key) {
    Header h = headers.lastHeader(key);
    return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  /** A 4- or 8-byte big-endian number header, or -1 when absent or malformed. */
  public static long number(Headers headers, String key) {
    Header h = headers.lastHeader(key);
    if (h == null || h.value() == null) {
      return -1;
    }
    return switch (h.value().length) {
      case 4 -> ByteBuffer.wrap(h.value()).getInt();
      case 8 -> ByteBuffer.wrap(h.value()).getLong();
      default -> -1;
    };
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
