package io.freshet.kit.kafka;

import io.freshet.schemas.topic.Topic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.AbstractMessageListenerContainer;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Creates the dead-letter topic of every listener's consumer group and topic before the listeners
 * start (an earlier lifecycle phase than theirs), so that an operator sees them and a reader can
 * subscribe before the first letter. An unreachable broker is logged, not fatal: the publisher
 * creates a missing one before its first letter anyway.
 */
class DeadLetterTopicsAtStart implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(DeadLetterTopicsAtStart.class);

  private final KafkaListenerEndpointRegistry registry;
  private final DeadLetterTopics topics;
  private volatile boolean running;

  DeadLetterTopicsAtStart(KafkaListenerEndpointRegistry registry, DeadLetterTopics topics) {
    this.registry = registry;
    this.topics = topics;
  }

  @Override
  public void start() {
    for (MessageListenerContainer container : registry.getListenerContainers()) {
      String group = container.getGroupId();
      String[] subscribed = container.getContainerProperties().getTopics();
      if (group == null || subscribed == null) {
        continue;
      }
      for (String topic : subscribed) {
        try {
          topics.ensure(Topic.dlqName(topic, group), topic);
        } catch (RuntimeException e) {
          log.warn(
              "dead-letter topic of {} for {} not created at start-up: {}",
              topic,
              group,
              Failures.reason(e));
        }
      }
    }
    running = true;
  }

  @Override
  public void stop() {
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  /** Before the listener containers' phase. */
  @Override
  public int getPhase() {
    return AbstractMessageListenerContainer.DEFAULT_PHASE - 100;
  }
}
