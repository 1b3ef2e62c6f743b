package io.freshet.scheduler.outcomes;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Stores each source's latest stats from the compacted stats topic, a poll at a time ({@link
 * StatsApplier}). Poison records go to the group's dead-letter topic alone, after the rest of the
 * poll is stored ({@link Poll}); offsets are committed after the database transaction.
 */
@Component
class SourceStatsListener {

  private final StatsApplier applier;
  private final DeadLetterPublisher deadLetters;

  private final RecordDecoder<SourceStats> decoder;

  SourceStatsListener(StatsApplier applier, DeadLetterPublisher deadLetters, FreshetTopics topics) {
    this.applier = applier;
    this.deadLetters = deadLetters;
    this.decoder = new RecordDecoder<>(topics.sourceStats());
  }

  @KafkaListener(
      id = "source-stats",
      idIsGroup = false,
      topics = FreshetTopics.SOURCE_STATS,
      containerFactory = "batchListenerFactory")
  void onStats(List<ConsumerRecord<String, byte[]>> records) {
    Poll<SourceStats> poll = Poll.decode(records, decoder::decode);
    poll.apply(applier::applyAll);
    poll.deadLetter(deadLetters::publish);
  }
}
