package io.freshet.kit.testing;

import io.freshet.kit.security.ApiKeys;
import io.freshet.kit.security.KeyState;
import io.freshet.kit.security.KeyTopicReader;
import io.freshet.kit.security.Role;
import io.freshet.schemas.avro.ApiKeyState;
import io.freshet.schemas.topic.FreshetTopics;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * API keys for tests, made as the scheduler makes them ({@link ApiKeys#generate()}) and published
 * as it publishes them: their states ({@code ApiKeyState}, never the secret) on the key topic,
 * which the service kit reads into every service's key directory. Shared by the services' tests
 * through the kit's test jar.
 */
public final class TestKeys {

  /**
   * A key: the text to send, and the state published for it.
   *
   * @param text the whole key, {@code fk_<id>_<secret>}
   */
  public record Key(String text, KeyState state) {
    public String bearer() {
      return "Bearer " + text;
    }

    public String id() {
      return state.id();
    }

    /** The key's secret part (which may itself hold {@code _}: it is base64url). */
    public String secret() {
      return ApiKeys.parse(text).orElseThrow().secret();
    }
  }

  private TestKeys() {}

  /** A new key of {@code role} for {@code tenant} (null: every tenant), revoked or expiring. */
  public static Key make(String tenant, Role role, Instant expiresAt, Instant revokedAt) {
    var generated = ApiKeys.generate();
    return new Key(
        generated.text(),
        new KeyState(
            generated.id(),
            tenant,
            role,
            generated.secretSha256(),
            Instant.now(),
            expiresAt,
            revokedAt));
  }

  /** Publishes the keys' states on the key topic, keyed by key id, and waits for the acks. */
  public static void publish(String bootstrapServers, FreshetTopics topics, List<Key> keys) {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    try (var producer =
        new KafkaProducer<String, ApiKeyState>(
            props,
            topics.apiKeys().keySerde().serializer(),
            topics.apiKeys().valueSerde().serializer())) {
      for (Key key : keys) {
        producer.send(
            new ProducerRecord<>(
                FreshetTopics.API_KEYS, key.id(), KeyTopicReader.event(key.state())));
      }
      producer.flush();
    }
  }
}
