package io.freshet.stats.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.kit.kafka.KafkaSettings;
import io.freshet.stats.state.StatsSettings;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;

/** The Streams client's settings as the aggregator builds them from its properties. */
class StreamsSettingsTest {

  private static final String LINGER =
      StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG);
  private static final String BATCH =
      StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG);

  private static StatsProperties stats(Duration commitInterval) {
    return new StatsProperties(
        "freshet-stats-aggregator",
        20,
        512,
        32,
        Duration.ofDays(14),
        Duration.ofHours(24),
        StatsSettings.Estimator.POSTERIOR,
        Duration.ofDays(60),
        Duration.ofDays(365),
        Duration.ofDays(7),
        5,
        "/tmp/freshet-stats-test",
        1,
        1,
        commitInterval,
        "localhost:8080",
        Duration.ofSeconds(5),
        500);
  }

  private static KafkaSettings topics() {
    return new KafkaSettings(
        "http://unused",
        false,
        12,
        (short) 1,
        0,
        false,
        new KafkaSettings.OutageRetry(Duration.ofSeconds(1), Duration.ofSeconds(30)),
        Duration.ofSeconds(30),
        List.of());
  }

  private static Properties built(KafkaProperties kafka, Duration commitInterval) {
    return new StreamsConfiguration()
        .streamsSettings(kafka, stats(commitInterval), topics())
        .properties();
  }

  @Test
  void theProducerLingersForTheCommitIntervalInBatchesOf128KiB() {
    var p = built(new KafkaProperties(), Duration.ofSeconds(5));

    assertThat(p.get(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG)).isEqualTo(5_000L);
    assertThat(p.get(LINGER)).isEqualTo(5_000L);
    assertThat(p.get(BATCH)).isEqualTo(128 * 1024);
    assertThat(p.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG))
        .isEqualTo(StreamsConfig.EXACTLY_ONCE_V2);
  }

  @Test
  void lingerNeverExceeds30sWhateverTheCommitInterval() {
    // delivery.timeout.ms (120 s) must cover linger.ms plus request.timeout.ms (30 s): the
    // producer refuses to start otherwise
    assertThat(built(new KafkaProperties(), Duration.ofMinutes(5)).get(LINGER)).isEqualTo(30_000L);
    assertThat(built(new KafkaProperties(), Duration.ofMillis(100)).get(LINGER)).isEqualTo(100L);
  }

  @Test
  void anOperatorsOwnProducerSettingsWin() {
    var kafka = new KafkaProperties();
    kafka.getStreams().getProperties().put(LINGER, "20");
    kafka.getStreams().getProperties().put(BATCH, "16384");

    var p = built(kafka, Duration.ofSeconds(5));

    assertThat(p.get(LINGER)).isEqualTo("20");
    assertThat(p.get(BATCH)).isEqualTo("16384");
  }
}
