package io.freshet.stack.e2e;

import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.stack.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What the fault tests need beside {@link StackFixture}: more service instances, the services'
 * Prometheus counters and readiness, raw reads of whole topics (DLQs included) and a raw producer
 * for poison records.
 */
final class FaultTools {

  private FaultTools() {}

  /** A service process started beside the first: its name (logs, pid file) and port. */
  record Instance(String name, int port) {}

  /** Starts another instance of {@code module} on a free port and waits for its readiness. */
  static Instance startInstance(StackFixture stack, String module) throws IOException {
    int port = FreePorts.next();
    return new Instance(stack.services.startInstance(module, port), port);
  }

  /**
   * The sum of every sample of a counter or gauge in {@code /actuator/prometheus} of the service
   * whose public port is {@code port} (e.g. {@code freshet_worker_fetches_total}, over all its
   * tags), read on its management port; 0 when it has none yet.
   */
  static double metric(StackFixture stack, int port, String name) throws Exception {
    int management = stack.services.managementPort(port);
    var r =
        StackFixture.HTTP.send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + management + "/actuator/prometheus"))
                .timeout(Duration.ofSeconds(20))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("prometheus of port " + port + ": " + r.statusCode());
    }
    double sum = 0;
    for (String line : r.body().split("\n")) {
      if (line.startsWith("#")) {
        continue;
      }
      int end = line.indexOf('{');
      if (end < 0) {
        end = line.indexOf(' ');
      }
      if (end > 0 && line.substring(0, end).equals(name)) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }

  /**
   * The HTTP status of a service's {@code /actuator/health/readiness} (0 when it does not answer
   * within 5 s: the probe answers from background checks within a second, so a slow answer is a
   * loaded machine, and an outage test polling it must not spend its whole window on one call).
   */
  static int readiness(int port) {
    try {
      return StackFixture.HTTP
          .send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /**
   * Freshet's topic descriptors bound to the stack's registry (serdes for valid-format records).
   */
  static FreshetTopics topics(StackFixture stack) {
    return FreshetTopics.create(RegistrySettings.of(stack.settings.registryApiUrl(), false));
  }

  /** A producer of raw bytes, acks=all, as any client of the broker could be. */
  static KafkaProducer<byte[], byte[]> rawProducer(StackFixture stack) {
    Properties p = new Properties();
    p.put("bootstrap.servers", stack.settings.bootstrapServers());
    p.put("acks", "all");
    return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /**
   * Every committed record of {@code topic} from its beginning up to its end at the time of the
   * call (read_committed: a fetch-worker's aborted transactions are not seen), raw bytes.
   */
  static List<ConsumerRecord<byte[], byte[]>> readTopic(StackFixture stack, String topic) {
    Properties p = new Properties();
    p.put("bootstrap.servers", stack.settings.bootstrapServers());
    p.put("isolation.level", "read_committed");
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> parts =
          consumer.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(i.topic(), i.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      Instant deadline = Instant.now().plusSeconds(120);
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (Instant.now().isAfter(deadline)) {
          throw new IllegalStateException("could not read " + topic + " to its end " + end);
        }
        for (var rec : consumer.poll(Duration.ofMillis(500))) {
          if (rec.offset() < end.get(new TopicPartition(rec.topic(), rec.partition()))) {
            out.add(rec);
          }
        }
      }
    }
    return out;
  }

  /**
   * Every dead letter of {@code topic}: the records of each consumer group's dead-letter topic
   * ({@code topic.dlq.<group>}) that exists.
   */
  static List<ConsumerRecord<byte[], byte[]>> readDeadLetters(StackFixture stack, String topic) {
    List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
    deadLettersByTopic(stack, topic).values().forEach(out::addAll);
    return out;
  }

  /** The records of each dead-letter topic of {@code topic}, by dead-letter topic. */
  static Map<String, List<ConsumerRecord<byte[], byte[]>>> deadLettersByTopic(
      StackFixture stack, String topic) {
    Properties p = new Properties();
    p.put("bootstrap.servers", stack.settings.bootstrapServers());
    List<String> dlqs;
    try (var consumer =
        new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      dlqs =
          consumer.listTopics().keySet().stream()
              .filter(t -> t.startsWith(topic + io.freshet.schemas.topic.Topic.DLQ_INFIX))
              .sorted()
              .toList();
    }
    Map<String, List<ConsumerRecord<byte[], byte[]>>> out = new java.util.TreeMap<>();
    for (String dlq : dlqs) {
      out.put(dlq, readTopic(stack, dlq));
    }
    return out;
  }

  /** A header's value as text (null when absent). */
  static String header(ConsumerRecord<?, ?> rec, String name) {
    Header h = rec.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  /** A header holding a big-endian long (spring-kafka's {@code kafka_dlt-original-offset}). */
  static Long longHeader(ConsumerRecord<?, ?> rec, String name) {
    Header h = rec.headers().lastHeader(name);
    return h == null ? null : ByteBuffer.wrap(h.value()).getLong();
  }

  /** Rows of the content store. */
  static long storedRows(StackFixture stack) throws SQLException {
    try (Connection c = stack.connect();
        var st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) FROM content.platform_content")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
