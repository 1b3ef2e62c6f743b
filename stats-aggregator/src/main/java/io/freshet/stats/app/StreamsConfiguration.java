package io.freshet.stats.app;

import io.freshet.kit.kafka.KafkaSettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.stats.state.StatsUpdater;
import io.freshet.stats.topology.SourceStatsTopology;
import java.time.Clock;
import java.util.Properties;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Kafka wiring: the topology and the Streams configuration (topics and their provisioning come from
 * the service kit).
 */
@Configuration(proxyBeanMethods = false)
class StreamsConfiguration {

  @Bean
  Clock clock() {
    return Clock.systemUTC();
  }

  @Bean
  StatsUpdater statsUpdater(StatsProperties props, Clock clock) {
    return new StatsUpdater(props.settings(), clock);
  }

  @Bean
  Topology sourceStatsTopology(FreshetTopics topics, StatsUpdater updater, StatsProperties props) {
    return SourceStatsTopology.build(topics, updater, props.applicationId());
  }

  @Bean
  StreamsSettings streamsSettings(
      KafkaProperties kafka, StatsProperties props, KafkaSettings topicSettings) {
    Properties p = new Properties();
    p.putAll(kafka.buildStreamsProperties());
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, props.applicationId());
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, String.join(",", kafka.getBootstrapServers()));
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.STATE_DIR_CONFIG, props.stateDir());
    p.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, props.standbyReplicas());
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, props.streamThreads());
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, props.commitInterval().toMillis());
    // Under exactly-once nothing the producer sends is visible before the commit, which flushes it:
    // lingering up to the commit interval costs no latency and makes each partition's records of a
    // commit one batch (ADR 0018, "The stats aggregator commits every 5 s"). An operator's own
    // spring.kafka.streams.properties.producer.* wins.
    p.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.LINGER_MS_CONFIG), lingerMs(props));
    p.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), BATCH_SIZE);
    p.put(StreamsConfig.APPLICATION_SERVER_CONFIG, props.advertisedHost());
    p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) topicSettings.replicationFactor());
    if (topicSettings.minInsyncReplicas() > 0) {
      // the changelog and any repartition topic, which Streams creates itself
      p.put(
          StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
          Integer.toString(topicSettings.minInsyncReplicas()));
    }
    return new StreamsSettings(p);
  }

  /** The Streams producer's batch per partition: a commit's records of one partition, at most. */
  static final int BATCH_SIZE = 128 * 1024;

  /**
   * The Streams producer's {@code linger.ms}: the commit interval, at most 30 s (the producer
   * requires {@code delivery.timeout.ms}, 120 s, to cover linger plus a request's 30 s timeout).
   */
  static long lingerMs(StatsProperties props) {
    return Math.min(props.commitInterval().toMillis(), 30_000L);
  }

  /** The Kafka Streams client configuration, as one value. */
  record StreamsSettings(Properties properties) {}
}
