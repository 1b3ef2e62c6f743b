package io.freshet.sink.ingest;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.serde.DeserializationFailures;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.sink.config.SinkProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.listener.DeadLetterPublishingRecoverer;
import org.springframework.stereotype.Component;

/**
 * Stores each poll's {@code ContentFetched} records with one upsert. Records that cannot be decoded
 * or stored go to {@code freshet.content.fetched.v1.dlq} (original key and bytes, reason in the
 * headers) after the good ones of their batch are stored. Any other failure (PostgreSQL or the
 * broker unavailable) fails the batch: the container retries it until it succeeds and commits no
 * offset meanwhile, and the upsert makes the retry harmless.
 */
@Component
class ContentFetchedListener {

  private static final Logger log = LoggerFactory.getLogger(ContentFetchedListener.class);

  private final ContentUpserter upserter;
  private final DeadLetterPublishingRecoverer deadLetters;
  private final Deserializer<ContentFetched> deserializer;
  private final Duration defaultRetention;
  private final Counter inserted;
  private final Counter versions;
  private final Counter duplicates;
  private final Counter deadLettered;
  private final DistributionSummary batchSize;
  private final Timer batchLatency;

  ContentFetchedListener(
      ContentUpserter upserter,
      DeadLetterPublishingRecoverer deadLetters,
      FreshetTopics topics,
      SinkProperties props,
      MeterRegistry meters) {
    this.upserter = upserter;
    this.deadLetters = deadLetters;
    this.deserializer = topics.contentFetched().valueSerde().deserializer();
    this.defaultRetention = props.sink().defaultRetention();
    this.inserted = meters.counter("freshet.sink.rows.inserted");
    this.versions = meters.counter("freshet.sink.rows.versions");
    this.duplicates = meters.counter("freshet.sink.rows.duplicates");
    this.deadLettered =
        meters.counter("freshet.sink.dead.letters", "topic", FreshetTopics.CONTENT_FETCHED);
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
    List<ContentVersion> good = new ArrayList<>(records.size());
    List<Rejected> poison = new ArrayList<>();
    for (ConsumerRecord<String, byte[]> record : records) {
      try {
        ContentFetched event =
            deserializer.deserialize(record.topic(), record.headers(), record.value());
        if (event == null) {
          continue; // a tombstone carries nothing to store
        }
        good.add(ContentVersion.of(event, defaultRetention));
      } catch (SerializationException | IllegalArgumentException e) {
        poison.add(new Rejected(record, describe(record, e)));
      }
    }
    ContentUpserter.Result result = upserter.upsert(UpsertPlan.of(good));
    // After the good records are stored: if publishing a dead letter fails, the batch is retried
    // and the upsert of its good records changes nothing the second time.
    for (Rejected r : poison) {
      log.warn("dead-lettering {}", r.reason());
      deadLetters.accept(r.record(), new PoisonRecordException(r.reason(), null));
    }
    inserted.increment(result.inserted());
    versions.increment(result.versions());
    duplicates.increment(result.duplicates());
    deadLettered.increment(poison.size());
    batchSize.record(records.size());
    sample.stop(batchLatency);
  }

  private static String describe(ConsumerRecord<?, ?> record, Exception e) {
    return DeserializationFailures.describe(
        record.topic(), record.partition(), record.offset(), e.getMessage());
  }

  private record Rejected(ConsumerRecord<String, byte[]> record, String reason) {}
}
