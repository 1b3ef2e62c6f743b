package io.freshet.sink.ingest;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.sink.config.SinkProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Stores each poll's {@code ContentFetched} records and counts them into their requests'
 * activity-log rows with one statement, which is its own transaction. Records that cannot be
 * decoded or stored go to the sink's dead-letter topic ({@code
 * freshet.content.fetched.v1.dlq.freshet-content-sink}) (original key and bytes, reason in the
 * headers) after the good ones of their batch are stored. Any other failure (PostgreSQL or the
 * broker unavailable) fails the batch: the container retries it until it succeeds and commits no
 * offset meanwhile, and the upsert and the way it counts make the retry harmless. Offsets are
 * committed only after the transaction has committed.
 */
@Component
class ContentFetchedListener {

  private final ContentUpserter upserter;
  private final RecordDecoder<ContentFetched, ContentVersion> decoder;
  private final Counter inserted;
  private final Counter versions;
  private final Counter duplicates;
  private final DistributionSummary batchSize;
  private final Timer batchLatency;

  ContentFetchedListener(
      ContentUpserter upserter,
      DeadLetterPublisher deadLetters,
      FreshetTopics topics,
      SinkProperties props,
      MeterRegistry meters) {
    this.upserter = upserter;
    var defaultRetention = props.sink().defaultRetention();
    this.decoder =
        new RecordDecoder<>(
            topics.contentFetched().valueSerde().deserializer(),
            e -> ContentVersion.of(e, defaultRetention),
            deadLetters);
    this.inserted = meters.counter("freshet.sink.rows.inserted");
    this.versions = meters.counter("freshet.sink.rows.versions");
    this.duplicates = meters.counter("freshet.sink.rows.duplicates");
    this.batchSize = meters.summary("freshet.sink.batch.size");
    this.batchLatency = meters.timer("freshet.sink.batch.latency");
  }

  @KafkaListener(
      id = "content-fetched",
      idIsGroup = false,
      topics = FreshetTopics.CONTENT_FETCHED,
      containerFactory = "batchListenerFactory")
  void onBatch(List<ConsumerRecord<String, byte[]>> records) {
    Timer.Sample sample = Timer.start();
    var decoded = decoder.decode(records);
    ContentUpserter.Result result = store(decoded.values());
    decoder.deadLetter(decoded.poison());
    inserted.increment(result.inserted());
    versions.increment(result.versions());
    duplicates.increment(result.duplicates());
    batchSize.record(records.size());
    sample.stop(batchLatency);
  }

  /** The sink path without Kafka: one statement (auto-committed, so one transaction). */
  ContentUpserter.Result store(List<ContentVersion> consumed) {
    return upserter.upsert(UpsertPlan.of(consumed));
  }
}
