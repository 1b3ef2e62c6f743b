package io.freshet.kit.security;

import io.freshet.kit.kafka.Failures;
import io.freshet.schemas.avro.ApiKeyState;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Reads the key topic ({@code freshet.api.keys.v1}) from its beginning into the {@link
 * KeyDirectory}, then follows it for as long as the service runs. A plain consumer of its own
 * thread: no consumer group (every instance of every service reads every key), nothing committed,
 * {@code read_committed}. While the broker is away the directory keeps what it read; a record it
 * cannot decode is skipped with one line naming its key id.
 */
public final class KeyTopicReader implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(KeyTopicReader.class);

  private final Map<String, Object> consumerProperties;
  private final String topic;
  private final Deserializer<ApiKeyState> values;
  private final KeyDirectory directory;
  private final Duration poll;

  private volatile KafkaConsumer<String, byte[]> consumer;
  private volatile Thread thread;
  private volatile boolean running;
  private volatile boolean caughtUp;
  private volatile Instant lastRead;

  /**
   * @param consumerProperties the service's consumer settings (bootstrap servers, security); group
   *     and offsets are this reader's own
   */
  public KeyTopicReader(
      Map<String, Object> consumerProperties,
      String topic,
      Deserializer<ApiKeyState> values,
      KeyDirectory directory,
      Duration poll) {
    Map<String, Object> props = new HashMap<>(consumerProperties);
    props.remove(ConsumerConfig.GROUP_ID_CONFIG);
    props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.CLIENT_ID_CONFIG, "freshet-keys-" + UUID.randomUUID());
    this.consumerProperties = props;
    this.topic = topic;
    this.values = values;
    this.directory = directory;
    this.poll = poll;
  }

  /**
   * Whether the reader has read the topic up to where it ended when the reader started (or found
   * that the topic does not exist: then there is no key to wait for).
   */
  public boolean caughtUp() {
    return caughtUp;
  }

  /** When the topic last answered a poll; null before the first. */
  public Instant lastRead() {
    return lastRead;
  }

  @Override
  public void start() {
    running = true;
    thread = Thread.ofPlatform().daemon().name("freshet-key-topic").start(this::run);
  }

  @Override
  public void stop() {
    running = false;
    var c = consumer;
    if (c != null) {
      c.wakeup();
    }
    var t = thread;
    if (t != null) {
      try {
        t.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  private volatile boolean failing;

  private void run() {
    while (running) {
      try (var c =
          new KafkaConsumer<>(
              consumerProperties, new StringDeserializer(), new ByteArrayDeserializer())) {
        consumer = c;
        follow(c);
      } catch (WakeupException e) {
        return;
      } catch (RuntimeException e) {
        if (!failing) {
          log.warn(
              "key topic {} unreadable, keeping the {} keys read so far: {}",
              topic,
              directory.size(),
              Failures.reason(e));
          failing = true;
        }
        sleep(Duration.ofSeconds(2));
      }
    }
  }

  private void follow(KafkaConsumer<String, byte[]> c) {
    List<TopicPartition> partitions = List.of();
    while (running && partitions.isEmpty()) {
      partitions =
          Optional.ofNullable(c.partitionsFor(topic, Duration.ofSeconds(10)))
              .orElse(List.of())
              .stream()
              .map(p -> new TopicPartition(topic, p.partition()))
              .toList();
      if (partitions.isEmpty()) {
        if (!caughtUp) {
          // no topic, no key to wait for: readiness must not wait on a topic nobody created yet
          log.warn(
              "key topic {} does not exist: only the bootstrap keys work until it does", topic);
          caughtUp = true;
        }
        sleep(Duration.ofSeconds(1));
      }
    }
    c.assign(partitions);
    c.seekToBeginning(partitions);
    if (failing) {
      log.info("key topic {} readable again", topic);
      failing = false;
    }
    Map<TopicPartition, Long> end = c.endOffsets(partitions, Duration.ofSeconds(10));
    while (running) {
      for (ConsumerRecord<String, byte[]> record : c.poll(poll)) {
        apply(record);
      }
      lastRead = Instant.now();
      if (!caughtUp
          && end.entrySet().stream().allMatch(e -> c.position(e.getKey()) >= e.getValue())) {
        caughtUp = true;
        log.info("key topic {} read: {} keys", topic, directory.size());
      }
    }
  }

  private void apply(ConsumerRecord<String, byte[]> record) {
    if (record.value() == null) {
      return;
    }
    try {
      ApiKeyState event = values.deserialize(record.topic(), record.value());
      directory.put(state(event));
    } catch (RuntimeException e) {
      log.warn(
          "key topic {}: record of key {} at offset {} skipped: {}",
          record.topic(),
          record.key(),
          record.offset(),
          Failures.reason(e));
    }
  }

  /** The directory's view of an event. */
  public static KeyState state(ApiKeyState event) {
    byte[] digest = new byte[event.getSecretSha256().remaining()];
    event.getSecretSha256().duplicate().get(digest);
    return new KeyState(
        event.getKeyId(),
        event.getTenantId(),
        Role.parse(event.getRole())
            .orElseThrow(() -> new IllegalArgumentException("unknown role " + event.getRole())),
        digest,
        event.getCreatedAt(),
        event.getExpiresAt(),
        event.getRevokedAt());
  }

  /** The event that tells every service of {@code state}. */
  public static ApiKeyState event(KeyState state) {
    return ApiKeyState.newBuilder()
        .setKeyId(state.id())
        .setTenantId(state.tenantId())
        .setRole(state.role().wireName())
        .setSecretSha256(java.nio.ByteBuffer.wrap(state.secretSha256()))
        .setCreatedAt(state.createdAt())
        .setExpiresAt(state.expiresAt())
        .setRevokedAt(state.revokedAt())
        .build();
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
