package io.freshet.push.config;

import io.freshet.kit.kafka.ListenerFactories;
import io.freshet.push.facts.FactsFreshness;
import io.freshet.push.websub.Coalescer;
import io.freshet.push.websub.HubRateLimit;
import io.freshet.push.websub.LeasePlan;
import io.freshet.push.websub.Tokens;
import io.freshet.push.websub.Verification;
import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.schemas.topic.FreshetTopics;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.ConcurrentKafkaListenerContainerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;

/** The receiver's wiring: clock, the pure WebSub rules, the cipher, Kafka in and out. */
@Configuration(proxyBeanMethods = false)
class PushConfig {

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  Tokens tokens() {
    return new Tokens();
  }

  @Bean
  CredentialCipher pushCipher(PushProperties props) {
    return CredentialCipher.fromBase64Key(props.secretKey());
  }

  @Bean
  Verification verification(Clock clock, PushProperties props) {
    return new Verification(clock, props.pendingFor());
  }

  @Bean
  LeasePlan leasePlan(Clock clock, PushProperties props) {
    return new LeasePlan(clock, props.renewAt(), props.verifyTimeout());
  }

  /**
   * When a fetch's facts rewrite a source's row: {@code g = min(facts-granularity, max-silence /
   * 10)}.
   */
  @Bean
  FactsFreshness factsFreshness(PushProperties props) {
    return FactsFreshness.of(props.factsGranularity(), props.maxSilence());
  }

  @Bean
  Coalescer coalescer(Clock clock, PushProperties props) {
    return new Coalescer(clock, props.coalesceWindow(), 100_000);
  }

  @Bean
  HubRateLimit hubRateLimit(Clock clock, PushProperties props) {
    return new HubRateLimit(clock, props.hubRate(), props.hubBurst(), 10_000);
  }

  /**
   * Batch listeners of FetchRequested and FetchCompleted (a poll per call, one transaction):
   * read_committed, the kit's failure rule.
   */
  @Bean
  ConcurrentKafkaListenerContainerFactory<String, byte[]> batchListenerFactory(
      ListenerFactories factories, PushProperties props) {
    return factories.batches(props.listenerConcurrency());
  }

  /**
   * The idempotent, acks=all producer of PushReceived. Values are serialised by the caller with the
   * topic's serde (as the scheduler does), which the factory would otherwise configure again with
   * the producer's properties.
   */
  @Bean
  KafkaTemplate<String, byte[]> pushReceivedTemplate(
      KafkaProperties kafka,
      FreshetTopics topics,
      ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
    Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000);
    config.putIfAbsent(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000);
    config.putIfAbsent(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
    var factory =
        new DefaultKafkaProducerFactory<>(
            config, topics.pushReceived().keySerde().serializer(), new ByteArraySerializer());
    customizers.orderedStream().forEach(c -> c.customize(factory));
    return new KafkaTemplate<>(factory);
  }
}
