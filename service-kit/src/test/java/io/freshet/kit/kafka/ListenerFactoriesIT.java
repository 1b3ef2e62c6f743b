package io.freshet.kit.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.topic.Topic;
import io.freshet.testsupport.KafkaFixture;
import io.freshet.testsupport.RealInfrastructure;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.MessageListener;

/**
 * The service kit's record listeners on a real broker: one rule for every failure. Two consumer
 * groups read one topic, as the scheduler, the sink and the stats-aggregator read
 * freshet.fetch.completed.v1.
 */
@RealInfrastructure(RealInfrastructure.Component.KAFKA)
class ListenerFactoriesIT {

  private final String topic = "kit.it.orders." + UUID.randomUUID().toString().substring(0, 8);
  private final List<Object> readiness = new CopyOnWriteArrayList<>();
  private final List<ConcurrentMessageListenerContainer<String, byte[]>> containers =
      new ArrayList<>();

  @AfterEach
  void stop() {
    containers.forEach(ConcurrentMessageListenerContainer::stop);
  }

  @Test
  void poisonGoesToItsOwnGroupsDeadLetterTopicAnOutageIsRetriedAndARedriveReachesOneGroup(
      KafkaFixture kafka) throws Exception {
    kafka.createTopic(topic, 1, Map.of());
    var g1 = new CopyOnWriteArrayList<String>();
    var g2 = new CopyOnWriteArrayList<String>();
    var flakyAttempts = new AtomicInteger();
    start(kafka, "g1", g1, flakyAttempts);
    start(kafka, "g2", g2, new AtomicInteger(99)); // g2's database never fails

    send(kafka, "a", null);
    send(kafka, "poison", null);
    send(kafka, "flaky", null); // g1's database is down for its first three attempts
    send(kafka, "b", null);

    await().atMost(Duration.ofSeconds(60)).until(() -> g1.contains("b") && g2.contains("b"));
    assertThat(g1).as("g1 processed, in order, each once").containsExactly("a", "flaky", "b");
    assertThat(g2).containsExactly("a", "flaky", "b");
    assertThat(flakyAttempts.get()).as("attempts of the record that met the outage").isEqualTo(4);
    assertThat(readiness)
        .as("readiness during g1's outage")
        .containsExactly(ReadinessState.REFUSING_TRAFFIC, ReadinessState.ACCEPTING_TRAFFIC);

    // Each group dead-lettered the poison record to its own topic, which only it writes.
    var letters1 = readAll(kafka, Topic.dlqName(topic, "g1"), 1);
    var letters2 = readAll(kafka, Topic.dlqName(topic, "g2"), 1);
    assertThat(letters1).hasSize(1);
    assertThat(letters2).hasSize(1);
    var letter = letters1.getFirst();
    assertThat(new String(letter.value(), StandardCharsets.UTF_8)).isEqualTo("poison");
    assertThat(letter.key()).isEqualTo("k-poison");
    assertThat(DeadLetter.text(letter.headers(), DeadLetter.GROUP)).isEqualTo("g1");
    assertThat(DeadLetter.text(letter.headers(), DeadLetter.ORIGINAL_TOPIC)).isEqualTo(topic);
    assertThat(DeadLetter.number(letter.headers(), DeadLetter.ORIGINAL_OFFSET)).isEqualTo(1);
    assertThat(DeadLetter.text(letter.headers(), DeadLetter.REASON))
        .isEqualTo("IllegalArgumentException: not an order: poison");
    assertThat(DeadLetter.text(letter.headers(), DeadLetter.FIRST_FRAME))
        .contains("ListenerFactoriesIT");
    assertThat(DeadLetter.text(letters2.getFirst().headers(), DeadLetter.GROUP)).isEqualTo("g2");

    // A record re-driven to g1 (after a fix) reaches g1 only.
    send(kafka, "again", "g1");
    send(kafka, "c", null);
    await().atMost(Duration.ofSeconds(30)).until(() -> g1.contains("c") && g2.contains("c"));
    assertThat(g1).containsExactly("a", "flaky", "b", "again", "c");
    assertThat(g2).containsExactly("a", "flaky", "b", "c");
    System.out.printf(
        "kit reconciliation: sent 6 (1 poison, 1 re-driven to g1); g1 processed %d, dead-lettered"
            + " %d; g2 processed %d, dead-lettered %d; lost 0%n",
        g1.size(), letters1.size(), g2.size(), letters2.size());
  }

  private void start(
      KafkaFixture kafka, String group, List<String> processed, AtomicInteger flakyAttempts) {
    var props = new KafkaProperties();
    props.setBootstrapServers(List.of(kafka.bootstrapServers()));
    props.getConsumer().setGroupId(group);
    var settings =
        new KafkaSettings(
            "http://unused",
            false,
            1,
            (short) 1,
            0,
            false,
            new KafkaSettings.OutageRetry(Duration.ofMillis(100), Duration.ofMillis(400)),
            Duration.ofSeconds(10),
            List.of());
    var producers =
        new DefaultKafkaProducerFactory<>(
            props.buildProducerProperties(), new StringSerializer(), new ByteArraySerializer());
    var admin =
        new KafkaAdmin(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    var publisher =
        new DeadLetterPublisher(
            new KafkaTemplate<>(producers),
            group,
            new SimpleMeterRegistry(),
            Duration.ofSeconds(10),
            new DeadLetterTopics(admin, 0));
    var outage =
        new Outage(
            event -> readiness.add(((AvailabilityChangeEvent<?>) event).getState()),
            java.time.Clock.systemUTC(),
            Duration.ofMinutes(5));
    var factories =
        new ListenerFactories(
            props,
            new StaticListableBeanFactory()
                .getBeanProvider(DefaultKafkaConsumerFactoryCustomizer.class),
            publisher,
            outage,
            settings);
    var container = factories.records(1).createContainer(topic);
    container.getContainerProperties().setGroupId(group);
    container.setupMessageListener(
        (MessageListener<String, byte[]>)
            record -> {
              String value = new String(record.value(), StandardCharsets.UTF_8);
              if (value.equals("poison")) {
                throw new IllegalArgumentException("not an order: " + value);
              }
              if (value.equals("flaky") && flakyAttempts.incrementAndGet() <= 3) {
                throw new IllegalStateException(
                    "cannot store", new SQLTransientConnectionException("database down"));
              }
              processed.add(value);
            });
    container.start();
    containers.add(container);
  }

  private void send(KafkaFixture kafka, String value, String redriveTo) throws Exception {
    var p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    try (var producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      var record =
          new ProducerRecord<>(topic, "k-" + value, value.getBytes(StandardCharsets.UTF_8));
      if (redriveTo != null) {
        record.headers().add(DeadLetter.REDRIVE_GROUP, redriveTo.getBytes(StandardCharsets.UTF_8));
      }
      producer.send(record).get();
    }
  }

  private static List<ConsumerRecord<String, byte[]>> readAll(
      KafkaFixture kafka, String dlq, int expected) {
    var p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
    try (var consumer =
        new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
      consumer.subscribe(List.of(dlq));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> {
                consumer.poll(Duration.ofMillis(300)).forEach(out::add);
                return out.size() >= expected;
              });
      consumer.poll(Duration.ofMillis(500)).forEach(out::add); // and nothing more
    }
    return out;
  }
}
