package io.freshet.scheduler.outcomes;

import io.freshet.kit.kafka.DeadLetterPublisher;
import io.freshet.scheduler.schedule.PushRules;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Applies the push receiver's events ({@code freshet.push.received.v1}) to the source:
 *
 * <ul>
 *   <li>{@code notification} (a hub announced that a source changed): the source's fetch-now, the
 *       same one the API's {@code POST /sources/{id}/fetch} makes: the content still comes only
 *       from the worker's fetch. Idempotent: a notification no newer than the last one applied to
 *       the source changes nothing ({@code scheduler.sources.push_received_at}).
 *   <li>{@code subscription_live}: push is live until the lease's end ({@code push_live_until});
 *       from the next successful poll on, the source is polled only as a safety net ({@link
 *       PushRules}).
 *   <li>{@code subscription_ended}: push is no longer live; the source is due when its cadence
 *       says, if that is sooner than the safety net's time, and the return is counted.
 * </ul>
 *
 * Subscription events no later than the last one applied change nothing ({@code push_state_at}).
 *
 * <p>A poll at a time in one transaction ({@link PushApplier}); offsets are committed after it, and
 * a redelivered poll changes nothing. Poison records go to the group's dead-letter topic alone,
 * after the rest of the poll is applied ({@link Poll}); an outage fails the poll, which is retried
 * whole. Counters count what was committed.
 */
@Component
class PushReceivedListener {

  private final PushApplier applier;
  private final DeadLetterPublisher deadLetters;
  private final Clock clock;
  private final MeterRegistry meters;
  private final RecordDecoder<PushReceived> decoder;

  PushReceivedListener(
      PushApplier applier,
      DeadLetterPublisher deadLetters,
      Clock clock,
      MeterRegistry meters,
      FreshetTopics topics) {
    this.applier = applier;
    this.deadLetters = deadLetters;
    this.clock = clock;
    this.meters = meters;
    this.decoder = new RecordDecoder<>(topics.pushReceived());
  }

  @KafkaListener(
      id = "push-received",
      idIsGroup = false,
      topics = FreshetTopics.PUSH_RECEIVED,
      containerFactory = "batchListenerFactory")
  void onPush(List<ConsumerRecord<String, byte[]>> records) {
    Poll<PushReceived> poll = Poll.decode(records, decoder::decode);
    List<Verdict<PushApplier.Applied>> verdicts = poll.apply(applier::applyAll);
    for (int i = 0; i < verdicts.size(); i++) {
      PushApplier.Applied applied = verdicts.get(i).result();
      if (applied != null) {
        count(poll.values().get(i), applied);
      }
    }
    poll.deadLetter(deadLetters::publish);
  }

  private void count(PushReceived event, PushApplier.Applied applied) {
    if (applied.kind().equals("notification")) {
      meters
          .counter(
              "freshet.scheduler.push.fetches",
              "result",
              applied.applied() ? "requested" : "ignored")
          .increment();
      return;
    }
    meters
        .counter(
            "freshet.scheduler.push.subscription.events",
            "kind",
            applied.kind(),
            "result",
            applied.applied() ? "applied" : "ignored")
        .increment();
    if (applied.kind().equals("ended")
        && applied.applied()
        && PushRules.live(new PushRules.PushState(applied.liveBefore(), null), clock.instant())) {
      String reason = event.getReason() == null ? "ended" : event.getReason();
      meters.counter("freshet.scheduler.push.returned", "reason", reason).increment();
    }
  }
}
