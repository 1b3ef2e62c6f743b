package io.freshet.stats.topology;

import io.freshet.kit.kafka.DeadLetter;
import io.freshet.kit.kafka.Failures;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.DeserializationFailures;
import io.freshet.schemas.serde.PoisonRecordException;
import io.freshet.schemas.topic.Topic;
import io.freshet.stats.state.RatePopulation;
import io.freshet.stats.state.SourceState;
import io.freshet.stats.state.StatsDeriver;
import io.freshet.stats.state.StatsUpdater;
import java.time.Duration;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes each raw {@code FetchCompleted}, applies it to its source's state and forwards the
 * source's new stats; a record that cannot be decoded, or whose key is not its source id, goes to
 * the application's own dead-letter topic ({@code freshet.fetch.completed.v1.dlq.<application id>})
 * with its original key and bytes and the service kit's {@link DeadLetter} headers, as every other
 * consumer's. A record re-driven to another consumer group is skipped. Everything happens in the
 * task's exactly-once transaction: the state change, the stats and the dead letter commit together
 * with the input offset, or not at all.
 */
final class SourceStatsProcessor implements Processor<String, byte[], String, Object> {

  static final String REASON_HEADER = DeadLetter.REASON;

  /** The pause before a task failed by an outage gives up its thread: no hot loop meanwhile. */
  static final Duration OUTAGE_PAUSE = Duration.ofSeconds(2);

  private static final Logger log = LoggerFactory.getLogger(SourceStatsProcessor.class);

  private final Topic<String, FetchCompleted> topic;
  private final Deserializer<FetchCompleted> deserializer;
  private final StatsUpdater updater;
  private final StatsDeriver deriver;
  private final RatePopulation population;
  private ProcessorContext<String, Object> context;
  private KeyValueStore<String, SourceState> store;
  private KeyValueStore<String, byte[]> priors;

  SourceStatsProcessor(
      Topic<String, FetchCompleted> topic, StatsUpdater updater, StatsDeriver deriver) {
    this.topic = topic;
    this.deserializer = topic.valueSerde().deserializer();
    this.updater = updater;
    this.deriver = deriver;
    this.population = new RatePopulation(updater);
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.store = context.getStateStore(SourceStatsTopology.STORE);
    this.priors = context.getStateStore(SourceStatsTopology.PRIOR_STORE);
    for (String key : RatePopulation.KEYS) {
      population.read(key, priors.get(key));
    }
  }

  @Override
  public void process(Record<String, byte[]> record) {
    if (record.value() == null) {
      return; // a tombstone says nothing about a fetch
    }
    String redriveFor = DeadLetter.text(record.headers(), DeadLetter.REDRIVE_GROUP);
    if (redriveFor != null && !redriveFor.equals(context.applicationId())) {
      return; // re-driven from another consumer group's dead letters: not this one's to apply
    }
    FetchCompleted outcome;
    try {
      outcome = deserializer.deserialize(topic.name(), record.headers(), record.value());
    } catch (SerializationException e) {
      if (Failures.isOutage(e)) {
        // The registry is unreachable: not the record's fault. Fail the task after a pause; the
        // thread is replaced and the record re-read from the last commit until the registry is
        // back.
        pause();
        throw e;
      }
      deadLetter(record, e.getMessage());
      return;
    }
    String sourceId = outcome.getSourceId();
    if (!sourceId.equals(record.key())) {
      deadLetter(
          record,
          "key '" + record.key() + "' is not the source_id '" + sourceId + "' of the record");
      return;
    }
    if (outcome.getStatus() == FetchStatus.unknown) {
      deadLetter(record, "status is a symbol this build does not know (written by a newer schema)");
      return;
    }
    SourceState state = store.get(sourceId);
    if (state == null) {
      state = updater.initial();
    }
    if (updater.apply(state, outcome) != StatsUpdater.Applied.UPDATED) {
      return;
    }
    // the change rate under the task's population prior and age hazard, which this read teaches
    // in turn; what changed is put to a cached store that commits in the same transaction as the
    // states, so a restarted task resumes from exactly what its states were derived with
    population.learn(state);
    population.takeDirty().forEach(priors::put);
    store.put(sourceId, state);
    context.forward(
        new Record<String, Object>(sourceId, deriver.derive(sourceId, state), record.timestamp()),
        SourceStatsTopology.STATS_SINK);
  }

  private void deadLetter(Record<String, byte[]> record, String reason) {
    RecordMetadata meta = context.recordMetadata().orElse(null);
    String where =
        meta == null
            ? reason
            : DeserializationFailures.describe(
                meta.topic(), meta.partition(), meta.offset(), reason);
    var letter =
        new DeadLetter(
            meta == null ? topic.name() : meta.topic(),
            meta == null ? -1 : meta.partition(),
            meta == null ? -1 : meta.offset(),
            record.timestamp(),
            context.applicationId(),
            new PoisonRecordException(where, null));
    log.warn("dead-lettered to {}: {}", letter.dlqTopic(), where);
    context.forward(
        new Record<String, Object>(
            record.key(), record.value(), record.timestamp(), letter.headers(record.headers())),
        SourceStatsTopology.DLQ_SINK);
  }

  private static void pause() {
    try {
      Thread.sleep(OUTAGE_PAUSE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
