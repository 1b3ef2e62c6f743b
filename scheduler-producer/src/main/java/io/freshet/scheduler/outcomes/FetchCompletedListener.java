package io.freshet.scheduler.outcomes;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Applies fetch outcomes. Offsets are committed after the database transaction, so a crash
 * redelivers, and {@link OutcomeApplier} makes redelivery harmless.
 */
@Component
class FetchCompletedListener {

  private static final Logger log = LoggerFactory.getLogger(FetchCompletedListener.class);

  private final OutcomeApplier applier;
  private final MeterRegistry meters;

  private final RecordDecoder<FetchCompleted> decoder;

  FetchCompletedListener(OutcomeApplier applier, MeterRegistry meters, FreshetTopics topics) {
    this.applier = applier;
    this.meters = meters;
    this.decoder = new RecordDecoder<>(topics.fetchCompleted());
  }

  @KafkaListener(
      id = "fetch-completed",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_COMPLETED,
      containerFactory = "rawListenerFactory")
  void onFetchCompleted(ConsumerRecord<String, byte[]> record) {
    FetchCompleted event = decoder.decode(record);
    if (event == null) {
      return;
    }
    OutcomeApplier.Result result = applier.apply(event);
    meters
        .counter(
            "freshet.scheduler.outcomes",
            "status",
            event.getStatus().name(),
            "result",
            result.name().toLowerCase(java.util.Locale.ROOT))
        .increment();
    if (result != OutcomeApplier.Result.APPLIED) {
      log.debug(
          "outcome {} of source {} epoch {}: {}",
          event.getRequestId(),
          event.getSourceId(),
          event.getEpoch(),
          result);
    }
  }
}
