package io.freshet.kit.kafka;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Creates a consumer group's dead-letter topic before its first letter, with the partitions and
 * replication of the topic it mirrors: the group is the topic's only writer, so it owns its
 * creation (the topic provisioner owns the four main topics). Known topics are remembered, so the
 * check costs one admin round trip per dead-letter topic per process.
 */
public class DeadLetterTopics {

  private final KafkaAdmin admin;
  private final int minInsyncReplicas;
  private final Set<String> known = ConcurrentHashMap.newKeySet();

  public DeadLetterTopics(KafkaAdmin admin, int minInsyncReplicas) {
    this.admin = admin;
    this.minInsyncReplicas = minInsyncReplicas;
  }

  /** Makes sure {@code dlqTopic} exists, shaped like {@code sourceTopic}. */
  public void ensure(String dlqTopic, String sourceTopic) {
    if (known.contains(dlqTopic)) {
      return;
    }
    Map<String, TopicDescription> described = admin.describeTopics(sourceTopic);
    TopicDescription source = described.get(sourceTopic);
    int partitions = source.partitions().size();
    short replicas = (short) source.partitions().get(0).replicas().size();
    var topic = new NewTopic(dlqTopic, Optional.of(partitions), Optional.of(replicas));
    if (minInsyncReplicas > 0 && minInsyncReplicas <= replicas) {
      topic.configs(
          Map.of(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInsyncReplicas)));
    }
    admin.createOrModifyTopics(List.of(topic).toArray(NewTopic[]::new));
    known.add(dlqTopic);
  }
}
