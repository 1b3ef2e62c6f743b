package io.freshet.schemas.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.junit.jupiter.api.Test;

class TopicTest {

  private final Topic<String, String> compacted =
      new Topic<>("t.v1", Serdes.String(), Serdes.String(), 6, Map.of("cleanup.policy", "compact"));

  @Test
  void minInsyncReplicasIsSetOnTheTopicBesideItsOwnConfig() {
    var topic = compacted.newTopic((short) 3, 2);

    assertThat(topic.replicationFactor()).isEqualTo((short) 3);
    assertThat(topic.numPartitions()).isEqualTo(6);
    assertThat(topic.configs())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("cleanup.policy", "compact", "min.insync.replicas", "2"));
  }

  @Test
  void theDeadLetterTopicGetsItToo() {
    var dlq = compacted.newDlqTopic("g-1", (short) 3, 2);

    assertThat(dlq.name()).isEqualTo("t.v1.dlq.g-1");
    assertThat(dlq.configs()).containsExactlyEntriesOf(Map.of("min.insync.replicas", "2"));
  }

  @Test
  void zeroLeavesItToTheBrokersDefault() {
    assertThat(compacted.newTopic((short) 1, 0).configs())
        .containsExactlyEntriesOf(Map.of("cleanup.policy", "compact"));
    assertThat(compacted.newDlqTopic("g", (short) 1, 0).configs()).isNullOrEmpty();
  }

  @Test
  void moreThanTheReplicasOrNegativeIsRefused() {
    assertThatThrownBy(() -> compacted.newTopic((short) 1, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("replication factor 1, was 2");
    assertThatThrownBy(() -> compacted.newDlqTopic("g", (short) 3, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void eachConsumerGroupHasItsOwnDeadLetterTopic() {
    assertThat(compacted.dlqName("freshet-scheduler")).isEqualTo("t.v1.dlq.freshet-scheduler");
    assertThat(Topic.isDlq("t.v1.dlq.freshet-scheduler")).isTrue();
    assertThat(Topic.isDlq("t.v1")).isFalse();
    assertThatThrownBy(() -> compacted.dlqName("a group"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("[a-zA-Z0-9._-]");
    assertThatThrownBy(() -> compacted.dlqName("g".repeat(250)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
