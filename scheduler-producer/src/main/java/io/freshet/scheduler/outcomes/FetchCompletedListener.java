package io.freshet.scheduler.outcomes;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Applies fetch outcomes, a poll at a time in one database transaction ({@link OutcomeApplier}).
 * Offsets are committed after it, so a crash redelivers, and {@link OutcomeApplier} makes
 * redelivery harmless. Poison records go to the group's dead-letter topic alone, after the rest of
 * the poll is applied ({@link Poll}); an outage fails the poll, which is retried whole.
 */
@Component
class FetchCompletedListener {

  private static final Logger log = LoggerFactory.getLogger(FetchCompletedListener.class);

  private final OutcomeApplier applier;
  private final DeadLetterPublisher deadLetters;
  private final MeterRegistry meters;

  private final RecordDecoder<FetchCompleted> decoder;

  FetchCompletedListener(
      OutcomeApplier applier,
      DeadLetterPublisher deadLetters,
      MeterRegistry meters,
      FreshetTopics topics) {
    this.applier = applier;
    this.deadLetters = deadLetters;
    this.meters = meters;
    this.decoder = new RecordDecoder<>(topics.fetchCompleted());
  }

  @KafkaListener(
      id = "fetch-completed",
      idIsGroup = false,
      topics = FreshetTopics.FETCH_COMPLETED,
      containerFactory = "batchListenerFactory")
  void onFetchCompleted(List<ConsumerRecord<String, byte[]>> records) {
    Poll<FetchCompleted> poll = Poll.decode(records, decoder::decode);
    List<Verdict<OutcomeApplier.Result>> verdicts = poll.apply(applier::applyAll);
    for (int i = 0; i < verdicts.size(); i++) {
      OutcomeApplier.Result result = verdicts.get(i).result();
      if (result != null) {
        count(poll.values().get(i), result);
      }
    }
    poll.deadLetter(deadLetters::publish);
  }

  private void count(FetchCompleted event, OutcomeApplier.Result result) {
    meters
        .counter(
            "freshet.scheduler.outcomes",
            "status",
            event.getStatus().name(),
            "result",
            result.name().toLowerCase(Locale.ROOT))
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
