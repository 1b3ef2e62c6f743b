package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.stack.demoweb.Reconciliation;
import io.freshet.stack.launcher.KafkaCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Kafka's own durability promise, exercised through the whole pipeline: a three-node KRaft cluster
 * (combined broker and controller nodes, a three-voter quorum), every topic the services create
 * replicated 3 times with {@code min.insync.replicas} 2 (Kafka Streams' internal topics, the
 * offsets and the transaction state likewise), producers {@code acks=all}. The node that is the
 * active controller is SIGKILLed in the middle of a fetch-now round, with new versions fetched and
 * not yet committed: the round completes on the other two, nothing is lost or stored twice; the
 * node is restarted, its replicas catch up, another round flows, and the reconciliation is still
 * exact. No service is restarted.
 */
class KafkaClusterBrokerKillIT {

  static final int SOURCES = 30;
  static final int NODES = 3;

  static StackFixture stack;

  @BeforeAll
  static void startEverything() throws Exception {
    stack = StackFixture.start("kafka-cluster", SOURCES, FaultRound.webSettings(), NODES);
  }

  @AfterAll
  static void stopEverything() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void oneOfThreeBrokersKilledMidRoundAndRestartedLosesAndDuplicatesNothing() throws Exception {
    KafkaCluster cluster = stack.infra.kafkaCluster();
    Map<String, Long> pids = ServiceProcesses.pids(stack);
    try (Admin admin = cluster.admin()) {
      assertDurableLayout(admin);
      int victim = cluster.activeController();
      long ledByVictim =
          partitions(admin).stream()
              .filter(p -> p.leader() != null && p.leader().id() == victim)
              .count();
      assertThat(ledByVictim).as("partitions led by node " + victim).isPositive();

      FaultRound round = FaultRound.startAndAwaitFirstNewVersionServed(stack);
      cluster.kill(victim);
      Instant killedAt = Instant.now();
      long inFlight = FaultRound.servedNotStored(stack);
      long doneAtKill = stack.outcomesAfter(round.start());
      stack.awaitEveryOutcomeAfter(round.start(), round.sources(), Duration.ofMinutes(5));
      long roundDoneAfter = Duration.between(killedAt, Instant.now()).toSeconds();
      Reconciliation whileDown = stack.awaitReconciled(Duration.ofMinutes(2));
      long underReplicated = partitions(admin).stream().filter(p -> p.isr().size() < NODES).count();
      System.out.println(
          "fault kafka cluster: node "
              + victim
              + " (active controller, leader of "
              + ledByVictim
              + " partitions) SIGKILLed with "
              + inFlight
              + " new versions served and not stored, "
              + doneAtKill
              + " of "
              + round.sources()
              + " outcomes applied; round done on "
              + (NODES - 1)
              + " nodes "
              + roundDoneAfter
              + " s after the kill, "
              + underReplicated
              + " partitions under-replicated: "
              + whileDown.line());
      assertThat(whileDown.exact()).as(whileDown.line()).isTrue();
      assertThat(whileDown.published())
          .as("the round served new versions")
          .isGreaterThan(round.servedBefore());
      assertThat(cluster.isAlive(victim)).isFalse();

      Instant restartBegan = Instant.now();
      cluster.restart(victim); // returns once the node is a registered, unfenced broker again
      long registeredAfter = Duration.between(restartBegan, Instant.now()).toSeconds();
      Awaitility.await("every replica in sync again")
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .until(() -> partitions(admin).stream().allMatch(p -> p.isr().size() == NODES));
      long inSyncAfter = Duration.between(restartBegan, Instant.now()).toSeconds();
      FaultRound again = FaultRound.startAndAwaitFirstNewVersionServed(stack);
      stack.awaitEveryOutcomeAfter(again.start(), again.sources(), Duration.ofMinutes(3));
      Reconciliation r = stack.awaitReconciled(Duration.ofMinutes(2));
      System.out.println(
          "fault kafka cluster: node "
              + victim
              + " restarted: a broker again after "
              + registeredAfter
              + " s, every replica in sync after "
              + inSyncAfter
              + " s; another round, no service restarted: "
              + r.line());
      ServiceProcesses.assertSameProcessesReadyAgain(stack, pids, Duration.ofMinutes(2));
      assertThat(r.exact()).as(r.line()).isTrue();
      assertThat(r.published())
          .as("the second round served new versions")
          .isGreaterThan(whileDown.published());
    }
  }

  /**
   * Every Freshet topic (DLQs and Kafka Streams' internal topics included) has 3 replicas and its
   * own {@code min.insync.replicas} 2; the offsets and transaction-state topics have 3 replicas.
   */
  private static void assertDurableLayout(Admin admin) throws Exception {
    List<String> ours = freshetTopics(admin);
    assertThat(ours)
        .contains(
            FreshetTopics.FETCH_REQUESTED,
            FreshetTopics.CONTENT_FETCHED,
            FreshetTopics.FETCH_COMPLETED,
            FreshetTopics.SOURCE_STATS,
            io.freshet.schemas.topic.Topic.dlqName(
                FreshetTopics.FETCH_REQUESTED, "freshet-fetch-worker"))
        .anyMatch(t -> t.startsWith("freshet-stats-aggregator-") && t.endsWith("-changelog"));
    List<String> all = new ArrayList<>(ours);
    all.add("__consumer_offsets");
    all.add("__transaction_state");
    for (TopicDescription d :
        admin.describeTopics(all).allTopicNames().get(30, TimeUnit.SECONDS).values()) {
      for (TopicPartitionInfo p : d.partitions()) {
        assertThat(p.replicas()).as(d.name() + "-" + p.partition() + " replicas").hasSize(NODES);
      }
    }
    Map<ConfigResource, Config> configs =
        admin
            .describeConfigs(
                all.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList())
            .all()
            .get(30, TimeUnit.SECONDS);
    configs.forEach(
        (resource, config) -> {
          ConfigEntry minIsr = config.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
          assertThat(minIsr.value()).as(resource.name() + " min.insync.replicas").isEqualTo("2");
          if (resource.name().startsWith("freshet")) {
            assertThat(minIsr.source())
                .as(resource.name() + ": set on the topic, not only the brokers' default")
                .isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG);
          }
        });
    System.out.println(
        "kafka cluster: "
            + all.size()
            + " topics with 3 replicas and min.insync.replicas 2: "
            + String.join(", ", all));
  }

  private static List<String> freshetTopics(Admin admin) throws Exception {
    return admin
        .listTopics(new ListTopicsOptions().listInternal(true))
        .names()
        .get(30, TimeUnit.SECONDS)
        .stream()
        .filter(t -> t.startsWith("freshet"))
        .sorted()
        .toList();
  }

  /** Every partition of the Freshet topics and of the offsets and transaction-state topics. */
  private static List<TopicPartitionInfo> partitions(Admin admin) throws Exception {
    List<String> all = new ArrayList<>(freshetTopics(admin));
    all.add("__consumer_offsets");
    all.add("__transaction_state");
    return admin.describeTopics(all).allTopicNames().get(30, TimeUnit.SECONDS).values().stream()
        .map(TopicDescription::partitions)
        .flatMap(Collection::stream)
        .toList();
  }
}
