package io.freshet.sink.activity;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.sink.ingest.ContentUpserter;
import io.freshet.sink.ingest.RecordDecoder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records each poll's {@code FetchCompleted} outcomes in the activity log and keeps the versions
 * their fetches listed from expiring, in one transaction. Poison goes to {@code
 * freshet.fetch.completed.v1.dlq}; infrastructure failures fail the batch, which is retried until
 * it succeeds (the same container factory as the content listener). Its fetches wait for company
 * ({@code activity-fetch-min-bytes}, at most {@code activity-fetch-max-wait-ms}): a poll then holds
 * hundreds of outcomes, not tens, and one transaction and offset commit serve them all.
 */
@Component
class FetchCompletedListener {

  private final ActivityLog activity;
  private final ContentUpserter content;
  private final TransactionTemplate tx;
  private final RecordDecoder<FetchCompleted, FetchOutcome> decoder;
  private final Counter recorded;

  FetchCompletedListener(
      ActivityLog activity,
      ContentUpserter content,
      TransactionTemplate tx,
      DeadLetterPublisher deadLetters,
      FreshetTopics topics,
      MeterRegistry meters) {
    this.activity = activity;
    this.content = content;
    this.tx = tx;
    this.decoder =
        new RecordDecoder<>(
            topics.fetchCompleted().valueSerde().deserializer(), FetchOutcome::of, deadLetters);
    this.recorded = meters.counter("freshet.sink.activity.outcomes");
  }

  @KafkaListener(
      id = "fetch-completed",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_COMPLETED,
      containerFactory = "batchListenerFactory",
      properties = {
        "fetch.min.bytes=${freshet.sink.activity-fetch-min-bytes:65536}",
        "fetch.max.wait.ms=${freshet.sink.activity-fetch-max-wait-ms:500}"
      })
  void onBatch(List<ConsumerRecord<String, byte[]>> records) {
    var decoded = decoder.decode(records);
    // A request repeated within the poll: its last outcome is the one recorded.
    Map<String, FetchOutcome> latest = new LinkedHashMap<>();
    for (FetchOutcome o : decoded.values()) {
      latest.remove(o.requestId());
      latest.put(o.requestId(), o);
    }
    List<FetchOutcome> outcomes = List.copyOf(latest.values());
    tx.executeWithoutResult(
        status -> {
          activity.recordOutcomes(outcomes);
          List<ContentUpserter.Listing> listed = new ArrayList<>();
          List<ContentUpserter.Unchanged> unchanged = new ArrayList<>();
          for (FetchOutcome o : outcomes) {
            switch (o.listing()) {
              case ITEMS ->
                  o.listed()
                      .forEach(
                          l ->
                              listed.add(
                                  new ContentUpserter.Listing(
                                      o.sourceId(), l.itemId(), l.contentHash(), o.finishedAt())));
              case UNCHANGED_SINCE_LAST_READ ->
                  unchanged.add(
                      new ContentUpserter.Unchanged(o.sourceId(), o.startedAt(), o.finishedAt()));
              case NOTHING -> {}
            }
          }
          content.extendUnchangedSinceLastRead(unchanged);
          content.extendListed(listed);
        });
    decoder.deadLetter(decoded.poison());
    recorded.increment(outcomes.size());
  }
}
