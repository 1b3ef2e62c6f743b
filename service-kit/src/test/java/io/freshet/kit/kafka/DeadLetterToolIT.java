package io.freshet.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.serde.PoisonRecordException;
import io.freshet.schemas.topic.Topic;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;

/** {@code ./freshet dlq} on a real broker: list, show, re-drive once. */
@RealInfrastructure(RealInfrastructure.Component.KAFKA)
class DeadLetterToolIT {

  private final String topic = "kit.tool." + UUID.randomUUID().toString().substring(0, 8);

  @Test
  void listsShowsAndReDrivesEachLetterOnceToItsTopicForTheGroupThatFailedIt(KafkaFixture kafka)
      throws Exception {
    kafka.createTopic(topic, 2, Map.of());
    var publisher =
        new DeadLetterPublisher(
            new KafkaTemplate<>(
                new DefaultKafkaProducerFactory<>(
                    Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()),
                    new StringSerializer(),
                    new ByteArraySerializer())),
            "sink",
            new SimpleMeterRegistry(),
            Duration.ofSeconds(10),
            new DeadLetterTopics(
                new KafkaAdmin(
                    Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers())),
                0));
    for (int i = 0; i < 3; i++) {
      publisher.publish(
          new ConsumerRecord<>(topic, i % 2, 10 + i, "k" + i, ("v" + i).getBytes()),
          new PoisonRecordException("bad record " + i, null));
    }
    String dlq = Topic.dlqName(topic, "sink");

    String listed = run(kafka, 0, "list");
    assertThat(listed).containsPattern(dlq.replace(".", "\\.") + " +3 +0 +3");

    String shown = run(kafka, 0, "show", dlq, "--limit", "2");
    assertThat(shown)
        .contains("from " + topic + "-0@10, group sink")
        .contains("reason: PoisonRecordException: bad record 0")
        .contains("... (--limit 2)");

    assertThat(run(kafka, 0, "redrive", dlq, "--dry-run")).contains("would re-drive 3 letters");
    assertThat(run(kafka, 0, "redrive", dlq)).contains("re-drove 3 letters of " + dlq);
    assertThat(run(kafka, 0, "redrive", dlq)).as("a second re-drive").contains("re-drove 0");
    assertThat(run(kafka, 0, "list")).containsPattern(dlq.replace(".", "\\.") + " +3 +3 +0");

    List<ConsumerRecord<String, byte[]>> back = read(kafka, topic, 3);
    assertThat(back)
        .extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
        .containsExactlyInAnyOrder("v0", "v1", "v2");
    for (var r : back) {
      assertThat(DeadLetter.text(r.headers(), DeadLetter.REDRIVE_GROUP)).isEqualTo("sink");
      assertThat(r.headers().lastHeader(DeadLetter.REASON)).as("no dead-letter headers").isNull();
    }
    System.out.printf(
        "dlq reconciliation: dead-lettered 3, re-driven 3 (a second re-drive 0), back on %s 3%n",
        topic);
  }

  @Test
  void badArgumentsAreOneLineAndExitTwo(KafkaFixture kafka) throws Exception {
    assertThat(run(kafka, 2, "show", "freshet.content.fetched.v1"))
        .contains("is not a dead-letter topic");
    assertThat(run(kafka, 2, "frobnicate")).contains("unknown command 'frobnicate'");
    assertThat(run(kafka, 2, "show", topic + ".dlq.g", "--limit", "x")).contains("--limit");
  }

  private static String run(KafkaFixture kafka, int expectedExit, String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    int code =
        DeadLetterTool.run(
            args,
            kafka.bootstrapServers(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
    assertThat(code).as(text).isEqualTo(expectedExit);
    return text;
  }

  private static List<ConsumerRecord<String, byte[]>> read(
      KafkaFixture kafka, String topic, int expected) {
    var p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      var parts = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      long deadline = System.currentTimeMillis() + 30_000;
      while (out.size() < expected && System.currentTimeMillis() < deadline) {
        consumer.poll(Duration.ofMillis(300)).forEach(out::add);
      }
      consumer.poll(Duration.ofMillis(500)).forEach(out::add);
    }
    return out;
  }
}
