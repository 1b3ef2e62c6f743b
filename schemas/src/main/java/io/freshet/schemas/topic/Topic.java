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
   * Infix of dead-letter topics: each consumer group of a topic has its own, {@code
   * <topic>.dlq.<group>}, written by that group only, so an operator sees whose failure a record is
   * and re-drives it to the one consumer that failed.
   */
  public static final String DLQ_INFIX = ".dlq.";

  private static final java.util.regex.Pattern LEGAL_NAME =
      java.util.regex.Pattern.compile("[a-zA-Z0-9._-]+");

  public Topic {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(keySerde, "keySerde");
    Objects.requireNonNull(valueSerde, "valueSerde");
    if (partitions < 1) {
      throw new IllegalArgumentException("partitions must be >= 1, was " + partitions);
    }
    config = Map.copyOf(config);
  }

  /**
   * Name of the dead-letter topic of {@code topic}'s consumer group {@code group}.
   *
   * @throws IllegalArgumentException if the group id cannot be part of a topic name (Kafka allows
   *     letters, digits, '.', '_' and '-', at most 249 characters in all)
   */
  public static String dlqName(String topic, String group) {
    String name = topic + DLQ_INFIX + group;
    if (group == null || group.isBlank() || !LEGAL_NAME.matcher(group).matches()) {
      throw new IllegalArgumentException(
          "consumer group '" + group + "' cannot name a dead-letter topic: use [a-zA-Z0-9._-]");
    }
    if (name.length() > 249) {
      throw new IllegalArgumentException("dead-letter topic name too long: " + name);
    }
    return name;
  }

  /** Name of the dead-letter topic of this topic's consumer group {@code group}. */
  public String dlqName(String group) {
    return dlqName(name, group);
  }

  /** Whether {@code topicName} is a dead-letter topic. */
  public static boolean isDlq(String topicName) {
    return topicName.contains(DLQ_INFIX);
  }

  /** The admin request that creates this topic. */
  public NewTopic newTopic(short replicationFactor) {
    return new NewTopic(name, Optional.of(partitions), Optional.of(replicationFactor))
        .configs(config);
  }

  /**
   * The admin request that creates the dead-letter topic of consumer group {@code group} (raw
   * bytes, the topic's partitions, no topic config of its own: a compacted topic's dead letters
   * must all be kept).
   */
  public NewTopic newDlqTopic(String group, short replicationFactor) {
    return new NewTopic(dlqName(group), Optional.of(partitions), Optional.of(replicationFactor));
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

  /** As {@link #newTopic(short, int)} for the dead-letter topic of consumer group {@code group}. */
  public NewTopic newDlqTopic(String group, short replicationFactor, int minInsyncReplicas) {
    return withMinInsyncReplicas(
        newDlqTopic(group, replicationFactor), replicationFactor, minInsyncReplicas);
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
