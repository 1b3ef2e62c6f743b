package io.freshet.worker.kafka;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.testsupport.Infrastructure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the worker's output topics as a subscriber would (read_committed, from the beginning) on a
 * background thread, and keeps what it read for assertions.
 */
final class OutputCollector implements AutoCloseable {

  record DeadLetter(String key, byte[] value, Headers headers) {}

  final List<ContentFetched> content = new CopyOnWriteArrayList<>();
  final List<FetchCompleted> completed = new CopyOnWriteArrayList<>();
  final List<DeadLetter> deadLetters = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  OutputCollector(FreshetTopics topics) {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "collector-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.METADATA_MAX_AGE_CONFIG, 500);
    var contentReader = topics.contentFetched().valueSerde().deserializer();
    var completedReader = topics.fetchCompleted().valueSerde().deserializer();
    var consumer =
        new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
    // Every worker group's dead-letter topic, whenever it is created (a pattern subscription sees a
    // new topic at the next metadata refresh, made frequent here).
    consumer.subscribe(
        java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(FreshetTopics.CONTENT_FETCHED)
                + "|"
                + java.util.regex.Pattern.quote(FreshetTopics.FETCH_COMPLETED)
                + "|"
                + java.util.regex.Pattern.quote(FreshetTopics.FETCH_REQUESTED + Topic.DLQ_INFIX)
                + ".+"));
    thread =
        Thread.ofPlatform()
            .daemon()
            .name("output-collector")
            .start(
                () -> {
                  try (consumer) {
                    while (running) {
                      for (ConsumerRecord<String, byte[]> r :
                          consumer.poll(Duration.ofMillis(200))) {
                        switch (r.topic()) {
                          case FreshetTopics.CONTENT_FETCHED ->
                              content.add(contentReader.deserialize(r.topic(), r.value()));
                          case FreshetTopics.FETCH_COMPLETED ->
                              completed.add(completedReader.deserialize(r.topic(), r.value()));
                          default ->
                              deadLetters.add(new DeadLetter(r.key(), r.value(), r.headers()));
                        }
                      }
                    }
                  }
                });
  }

  List<ContentFetched> contentOf(String sourceId) {
    return content.stream().filter(c -> c.getSourceId().equals(sourceId)).toList();
  }

  FetchCompleted completionOf(String requestId) {
    return completed.stream()
        .filter(c -> c.getRequestId().equals(requestId))
        .findFirst()
        .orElse(null);
  }

  List<ContentFetched> contentOfRequest(String requestId) {
    return content.stream().filter(c -> c.getRequestId().equals(requestId)).toList();
  }

  static Map<String, String> none() {
    return Map.of();
  }

  @Override
  public void close() {
    running = false;
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
