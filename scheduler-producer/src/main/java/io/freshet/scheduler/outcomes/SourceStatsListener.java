package io.freshet.scheduler.outcomes;

import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/** Stores each source's latest stats from the compacted stats topic. */
@Component
class SourceStatsListener {

  private final StatsApplier applier;

  private final RecordDecoder<SourceStats> decoder;

  SourceStatsListener(StatsApplier applier, FreshetTopics topics) {
    this.applier = applier;
    this.decoder = new RecordDecoder<>(topics.sourceStats());
  }

  @KafkaListener(
      id = "source-stats",
      idIsGroup = false,
      topics = FreshetTopics.SOURCE_STATS,
      containerFactory = "rawListenerFactory")
  void onStats(ConsumerRecord<String, byte[]> record) {
    SourceStats stats = decoder.decode(record);
    if (stats != null) {
      applier.apply(stats);
    }
  }
}
