package io.freshet.schemas.topic;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serde;

/**
 * One Kafka topic as every call site sees it: its name, how its keys and values are (de)serialised,
 * how many partitions it is created with and its topic-level configuration.
 *
 * @param name the topic name
 * @param keySerde serde of record keys
 * @param valueSerde serde of record values
 * @param partitions partitions the topic is created with
 * @param config topic-level configuration (e.g. {@code cleanup.policy})
 */
public record Topic<K, V>(
    String name,
    Serde<K> keySerde,
    Serde<V> valueSerde,
    int partitions,
    Map<String, String> config) {

  /**
   * Suffix of the dead-letter topic that receives records a consumer of this topic cannot process.
   */
  public static final String DLQ_SUFFIX = ".dlq";

  public Topic {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keySerde, "keySerde");
    Objects.requireNonNull(valueSerde, "valueSerde");
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be >= 1, was " + partitions);
    }
    config = Map.copyOf(config);
  }

  /** Name of this topic's dead-letter topic. */
  public String dlqName() {
    return name + DLQ_SUFFIX;
  }

  /** The admin request that creates this topic. */
  public NewTopic newTopic(short replicationFactor) {
    return new NewTopic(name, Optional.of(partitions), Optional.of(replicationFactor))
        .configs(config);
  }

  /** The admin request that creates this topic's dead-letter topic (raw bytes, same partitions). */
  public NewTopic newDlqTopic(short replicationFactor) {
    return new NewTopic(dlqName(), Optional.of(partitions), Optional.of(replicationFactor));
  }

  /**
   * The admin request that creates this topic with {@code min.insync.replicas} set on the topic, so
   * an {@code acks=all} write needs that many replicas whatever the brokers' default; {@code 0}
   * leaves it to the brokers' default (as {@link #newTopic(short)}).
   *
   * @throws IllegalArgumentException if it is negative or above the replication factor (no write
   *     could ever succeed)
   */
  public NewTopic newTopic(short replicationFactor, int minInsyncReplicas) {
    return withMinInsyncReplicas(newTopic(replicationFactor), replicationFactor, minInsyncReplicas);
  }

  /** As {@link #newTopic(short, int)} for this topic's dead-letter topic. */
  public NewTopic newDlqTopic(short replicationFactor, int minInsyncReplicas) {
    return withMinInsyncReplicas(
        newDlqTopic(replicationFactor), replicationFactor, minInsyncReplicas);
  }

  private static NewTopic withMinInsyncReplicas(
      NewTopic topic, short replicationFactor, int minInsyncReplicas) {
    if (minInsyncReplicas < 0 || minInsyncReplicas > replicationFactor) {
      throw new IllegalArgumentException(
          "min.insync.replicas must be 0 (the brokers' default) to the replication factor "
              + replicationFactor
              + ", was "
              + minInsyncReplicas);
    }
    if (minInsyncReplicas == 0) {
      return topic;
    }
    Map<String, String> configs = new HashMap<>();
    if (topic.configs() != null) {
      configs.putAll(topic.configs());
    }
    configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, Integer.toString(minInsyncReplicas));
    return topic.configs(configs);
  }

  /** The same topic with another partition count (deployments size topics to their load). */
  public Topic<K, V> withPartitions(int newPartitions) {
    return new Topic<>(name, keySerde, valueSerde, newPartitions, config);
  }
}
