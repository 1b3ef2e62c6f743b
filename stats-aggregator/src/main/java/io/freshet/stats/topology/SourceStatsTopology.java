package io.freshet.stats.topology;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.stats.state.SourceState;
import io.freshet.stats.state.SourceStateSerde;
import io.freshet.stats.state.StatsDeriver;
import io.freshet.stats.state.StatsUpdater;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * The stats topology, built by the one method that production and the {@code TopologyTestDriver}
 * tests share:
 *
 * <pre>
 * freshet.fetch.completed.v1 ──▶ [fetch-completed-source] ──▶ [source-stats-updater] ──▶ [source-stats-sink] ──▶ freshet.source.stats.v1
 *   (key = source_id, raw bytes)                                │ store source-stats-state   └▶ [fetch-completed-dlq-sink] ──▶ freshet.fetch.completed.v1.dlq.<application id>
 *                                                               │ store source-stats-priors (the task's change-rate priors and age hazards, four keys)
 * </pre>
 *
 * No repartition topic: the input is keyed by source id (the topic's contract), and a record whose
 * key is not its source id is a poison record (dead-lettered), not re-keyed.
 */
public final class SourceStatsTopology {

  public static final String SOURCE = "fetch-completed-source";
  public static final String PROCESSOR = "source-stats-updater";
  public static final String STORE = "source-stats-state";

  /** The task's change-rate priors and age hazards ({@code RatePopulation}), by key. */
  public static final String PRIOR_STORE = "source-stats-priors";

  public static final String STATS_SINK = "source-stats-sink";
  public static final String DLQ_SINK = "fetch-completed-dlq-sink";

  private SourceStatsTopology() {}

  /** The production topology, with the topics' serdes bound to the schema registry. */
  public static Topology build(FreshetTopics topics, StatsUpdater updater, String applicationId) {
    return build(topics.fetchCompleted(), topics.sourceStats(), updater, applicationId);
  }

  /**
   * The topology over the given topic descriptors: production passes the registry-bound ones,
   * {@code TopologyTestDriver} tests the same names with an in-memory Avro serde. Dead letters go
   * to the application's own dead-letter topic (the application id is its consumer group).
   */
  public static Topology build(
      Topic<String, FetchCompleted> completed,
      Topic<String, SourceStats> stats,
      StatsUpdater updater,
      String applicationId) {
    var deriver = new StatsDeriver(updater);
    StoreBuilder<KeyValueStore<String, SourceState>> store =
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(STORE), Serdes.String(), new SourceStateSerde())
            .withCachingEnabled();
    StoreBuilder<KeyValueStore<String, byte[]>> priors =
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(PRIOR_STORE), Serdes.String(), Serdes.ByteArray())
            .withCachingEnabled();
    return new Topology()
        .addSource(
            SOURCE,
            completed.keySerde().deserializer(),
            new ByteArrayDeserializer(),
            completed.name())
        .addProcessor(
            PROCESSOR, () -> new SourceStatsProcessor(completed, updater, deriver), SOURCE)
        .addStateStore(store, PROCESSOR)
        .addStateStore(priors, PROCESSOR)
        .addSink(
            STATS_SINK,
            stats.name(),
            stats.keySerde().serializer(),
            stats.valueSerde().serializer(),
            PROCESSOR)
        .addSink(
            DLQ_SINK,
            completed.dlqName(applicationId),
            completed.keySerde().serializer(),
            new ByteArraySerializer(),
            PROCESSOR);
  }
}
