package io.freshet.stats.topology;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.serde.DeserializationFailures;
import io.freshet.schemas.topic.Topic;
import io.freshet.stats.state.SourceState;
import io.freshet.stats.state.StatsDeriver;
import io.freshet.stats.state.StatsUpdater;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
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
 * the dead-letter topic with its original key and bytes and the reason in spring-kafka's {@code
 * kafka_dlt-*} headers (the same headers the other services' DLQs carry, the consumer group being
 * the application id). Everything happens in the task's exactly-once transaction: the state change,
 * the stats and the dead letter commit together with the input offset, or not at all.
 */
final class SourceStatsProcessor implements Processor<String, byte[], String, Object> {

  static final String REASON_HEADER = "kafka_dlt-exception-message";

  private static final Logger log = LoggerFactory.getLogger(SourceStatsProcessor.class);

  private final Topic<String, FetchCompleted> topic;
  private final Deserializer<FetchCompleted> deserializer;
  private final StatsUpdater updater;
  private final StatsDeriver deriver;
  private ProcessorContext<String, Object> context;
  private KeyValueStore<String, SourceState> store;

  SourceStatsProcessor(
      Topic<String, FetchCompleted> topic, StatsUpdater updater, StatsDeriver deriver) {
    this.topic = topic;
    this.deserializer = topic.valueSerde().deserializer();
    this.updater = updater;
    this.deriver = deriver;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    this.context = context;
    this.store = context.getStateStore(SourceStatsTopology.STORE);
  }

  @Override
  public void process(Record<String, byte[]> record) {
    if (record.value() == null) {
      return; // a tombstone says nothing about a fetch
    }
    FetchCompleted outcome;
    try {
      outcome = deserializer.deserialize(topic.name(), record.headers(), record.value());
    } catch (SerializationException e) {
      if (InfrastructureFailures.isInfrastructure(e)) {
        // The registry is unreachable: not the record's fault. Fail the task after a pause; the
        // thread is replaced and the record re-read from the last commit until the registry is
        // back.
        InfrastructureFailures.pause();
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
    log.warn("dead-lettered: {}", where);
    var headers = new RecordHeaders(record.headers().toArray());
    headers.add(REASON_HEADER, where.getBytes(StandardCharsets.UTF_8));
    // Three services read freshet.fetch.completed.v1 and share its DLQ: this says which rejected
    // the record, as spring-kafka's header does for the others (the application id is the group).
    headers.add(
        "kafka_dlt-original-consumer-group",
        context.applicationId().getBytes(StandardCharsets.UTF_8));
    if (meta != null) {
      headers.add("kafka_dlt-original-topic", meta.topic().getBytes(StandardCharsets.UTF_8));
      headers.add(
          "kafka_dlt-original-partition", ByteBuffer.allocate(4).putInt(meta.partition()).array());
      headers.add(
          "kafka_dlt-original-offset", ByteBuffer.allocate(8).putLong(meta.offset()).array());
    }
    context.forward(
        new Record<String, Object>(record.key(), record.value(), record.timestamp(), headers),
        SourceStatsTopology.DLQ_SINK);
  }
}
