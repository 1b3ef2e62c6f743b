package io.freshet.testsupport;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/** A real single-node Kafka KRaft broker (spring-kafka-test's), on a random port. */
public final class KafkaFixture {

  private final EmbeddedKafkaKraftBroker broker;

  private KafkaFixture(EmbeddedKafkaKraftBroker broker) {
    this.broker = broker;
  }

  static KafkaFixture start() {
    var broker = new EmbeddedKafkaKraftBroker(1, 1);
    broker.brokerProperties(
        Map.of(
            "auto.create.topics.enable", "false",
            "group.initial.rebalance.delay.ms", "0",
            "offsets.topic.replication.factor", "1",
            "offsets.topic.num.partitions", "5",
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "transaction.state.log.num.partitions", "5",
            "share.coordinator.state.topic.replication.factor", "1",
            "log.flush.interval.messages", "1000000"));
    broker.afterPropertiesSet();
    Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy, "kafka-fixture-stop"));
    return new KafkaFixture(broker);
  }

  /** {@code host:port} of the broker. */
  public String bootstrapServers() {
    return broker.getBrokersAsString();
  }

  /** Admin client properties for this broker. */
  public Properties adminProperties() {
    var props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    return props;
  }

  /** Creates a topic unless it exists. */
  public void createTopic(String name, int partitions, Map<String, String> config) {
    try (var admin = Admin.create(adminProperties())) {
      admin
          .createTopics(
              java.util.List.of(new NewTopic(name, partitions, (short) 1).configs(config)))
          .all()
          .get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException("cannot create topic " + name, e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
