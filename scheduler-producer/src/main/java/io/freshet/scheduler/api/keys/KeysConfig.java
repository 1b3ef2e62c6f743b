package io.freshet.scheduler.api.keys;

import io.freshet.kit.ops.OutageLog;
import io.freshet.kit.security.ApiKeyRules;
import io.freshet.kit.security.SecuritySettings;
import io.freshet.schemas.topic.FreshetTopics;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaProducerFactoryCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.http.HttpMethod;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The scheduler owns the API keys: the admin-only rules of {@code /keys} and of tenant changes, the
 * publisher of the keys' states to the key topic (every {@code publish-interval}, and all of them
 * once at start), the batched {@code last_used_at}, and the start-up check that a bootstrap admin
 * key exists (without one nobody could make the first key).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(KeysProperties.class)
class KeysConfig implements SchedulingConfigurer {

  private static final Logger log = LoggerFactory.getLogger(KeysConfig.class);

  private final ObjectProvider<KeyPublisher> publisher;
  private final ObjectProvider<KeyUsage> usage;
  private final KeysProperties props;
  private final Clock clock;

  KeysConfig(
      ObjectProvider<KeyPublisher> publisher,
      ObjectProvider<KeyUsage> usage,
      KeysProperties props,
      Clock clock,
      SecuritySettings security,
      Environment env) {
    requireBootstrapAdmin(security.adminKey(), env.getProperty("freshet.api.token", ""));
    this.publisher = publisher;
    this.usage = usage;
    this.props = props;
    this.clock = clock;
  }

  /** The service refuses to start without a bootstrap admin key. */
  static void requireBootstrapAdmin(String adminKey, String deprecatedToken) {
    if ((adminKey == null || adminKey.isBlank())
        && (deprecatedToken == null || deprecatedToken.isBlank())) {
      throw new IllegalStateException(
          "no bootstrap admin key: set freshet.security.admin-key (FRESHET_SECURITY_ADMIN_KEY;"
              + " the deprecated freshet.api.token, FRESHET_API_TOKEN, is accepted too); without"
              + " one nobody can create the first API key");
    }
  }

  /** Keys and tenant changes are the admin's. */
  @Bean
  ApiKeyRules schedulerAdminRules() {
    return rules ->
        rules
            .requestMatchers("/keys", "/keys/**")
            .hasRole("ADMIN")
            .requestMatchers(HttpMethod.POST, "/tenants", "/tenants/**")
            .hasRole("ADMIN")
            .requestMatchers(HttpMethod.PUT, "/tenants/**")
            .hasRole("ADMIN")
            .requestMatchers(HttpMethod.DELETE, "/tenants/**")
            .hasRole("ADMIN");
  }

  @Bean
  KeyUsage keyUsage(KeyRepository keys, Clock clock) {
    return new KeyUsage(keys, clock);
  }

  @Bean
  KeyPublisher keyPublisher(
      KeyRepository keys,
      KafkaProperties kafka,
      FreshetTopics topics,
      TransactionTemplate tx,
      ObjectProvider<DefaultKafkaProducerFactoryCustomizer> customizers) {
    Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.remove(ProducerConfig.TRANSACTIONAL_ID_CONFIG);
    int timeoutMs = (int) props.publishTimeout().toMillis();
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
    config.put(
        ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
        Math.max(timeoutMs, 1 + (int) kafkaRequestTimeout(config)));
    var factory =
        new DefaultKafkaProducerFactory<>(
            config, new StringSerializer(), new ByteArraySerializer());
    customizers.orderedStream().forEach(c -> c.customize(factory));
    return new KeyPublisher(
        keys, new KafkaTemplate<>(factory), topics.apiKeys(), tx, props.publishTimeout());
  }

  private static long kafkaRequestTimeout(Map<String, Object> config) {
    Object linger = config.getOrDefault(ProducerConfig.LINGER_MS_CONFIG, "5");
    Object request = config.getOrDefault(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "30000");
    return Long.parseLong(String.valueOf(linger)) + Long.parseLong(String.valueOf(request));
  }

  @Override
  public void configureTasks(ScheduledTaskRegistrar registrar) {
    var publishing = new OutageLog(log, "API key publisher", clock, Duration.ofMinutes(5));
    boolean[] reconciled = {false};
    registrar.addFixedDelayTask(
        new FixedDelayTask(
            () -> {
              try {
                if (!reconciled[0]) {
                  int sent = publisher.getObject().republishAll();
                  reconciled[0] = true;
                  log.info("API keys: {} published to the key topic at start", sent);
                } else {
                  publisher.getObject().publishPending();
                }
                publishing.succeeded();
              } catch (RuntimeException e) {
                publishing.failed(e);
              }
            },
            props.publishInterval(),
            Duration.ZERO));
    var flushing = new OutageLog(log, "API key last-use", clock, Duration.ofMinutes(30));
    registrar.addFixedDelayTask(
        new FixedDelayTask(
            () -> {
              try {
                usage.getObject().flush();
                flushing.succeeded();
              } catch (RuntimeException e) {
                flushing.failed(e);
              }
            },
            props.lastUsedFlush(),
            props.lastUsedFlush()));
  }
}
