package io.freshet.kit.kafka;

import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.TopicProvisioner;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaAdmin;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * The Kafka edge every Freshet service shares: its topics bound to the registry ({@link
 * FreshetTopics}), the topic provisioner at start-up, the dead-letter publisher, the outage state
 * and the listener factories. A service declares only its own listeners and producers; it replaces
 * a bean here by declaring its own (the fetch-worker's dead letters join its transactions, so it
 * gives the publisher its transactional template).
 */
@AutoConfiguration(after = KafkaAutoConfiguration.class)
@EnableConfigurationProperties(KafkaSettings.class)
public class KafkaKitAutoConfiguration {

  private static final Logger log = LoggerFactory.getLogger(KafkaKitAutoConfiguration.class);

  @Bean
  @ConditionalOnMissingBean
  FreshetTopics freshetTopics(KafkaSettings settings) {
    return FreshetTopics.create(
        RegistrySettings.of(settings.registryUrl(), settings.autoRegister()),
        settings.partitions(),
        settings.tenantContentTopics());
  }

  /**
   * Runs the topic provisioner before any listener starts: creates what is missing when {@code
   * create-topics} is on, and in any case warns of a topic with fewer partitions than configured.
   * An unreachable broker is logged, not fatal: listeners wait for it like for any outage.
   */
  @Bean
  SmartInitializingSingleton freshetTopicProvisioning(
      KafkaAdmin kafkaAdmin, FreshetTopics topics, KafkaSettings settings) {
    return () -> {
      var wanted =
          TopicProvisioner.freshetTopics(
              topics,
              new TopicProvisioner.Settings(
                  settings.partitions(),
                  settings.replicationFactor(),
                  settings.minInsyncReplicas()));
      try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
        if (settings.createTopics()) {
          TopicProvisioner.provision(admin, wanted, Duration.ofSeconds(30));
        } else {
          TopicProvisioner.check(admin, wanted, Duration.ofSeconds(30));
        }
      } catch (Exception e) {
        log.warn("topics not provisioned or checked at start-up: {}", Failures.reason(e));
      }
    };
  }

  @Bean
  @ConditionalOnMissingBean
  Outage outage(ApplicationEventPublisher events, KafkaSettings settings) {
    return new Outage(events, Clock.systemUTC(), settings.outageRetry().max().multipliedBy(2));
  }

  @Bean
  @ConditionalOnMissingBean
  DeadLetterTopics deadLetterTopics(KafkaAdmin kafkaAdmin, KafkaSettings settings) {
    return new DeadLetterTopics(kafkaAdmin, settings.minInsyncReplicas());
  }

  @Bean
  DeadLetterTopicsAtStart deadLetterTopicsAtStart(
      ObjectProvider<KafkaListenerEndpointRegistry> registry, DeadLetterTopics topics) {
    return new DeadLetterTopicsAtStart(
        registry.getIfAvailable(KafkaListenerEndpointRegistry::new), topics);
  }

  /** Dead letters through a plain (non-transactional) producer of raw bytes. */
  @Bean
  @ConditionalOnMissingBean
  DeadLetterPublisher deadLetterPublisher(
      KafkaProperties kafka,
      ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers,
      ObjectProvider<MeterRegistry> meters,
      KafkaSettings settings,
      DeadLetterTopics topics) {
    var factory =
        new DefaultKafkaProducerFactory<>(
            kafka.buildProducerProperties(), new StringSerializer(), new ByteArraySerializer());
    customizers.orderedStream().forEach(c -> c.customize(factory));
    return new DeadLetterPublisher(
        new KafkaTemplate<>(factory),
        kafka.getConsumer().getGroupId(),
        meters.getIfAvailable(SimpleMeterRegistry::new),
        settings.deadLetterTimeout(),
        topics);
  }

  @Bean
  @ConditionalOnMissingBean
  ListenerFactories listenerFactories(
      KafkaProperties kafka,
      ObjectProvider<DefaultKafkaConsumerFactoryCustomizer> customizers,
      DeadLetterPublisher deadLetters,
      Outage outage,
      KafkaSettings settings) {
    return new ListenerFactories(kafka, customizers, deadLetters, outage, settings);
  }
}
