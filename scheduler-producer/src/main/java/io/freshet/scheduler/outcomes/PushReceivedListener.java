package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.PushRules;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

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
 */
@Component
class PushReceivedListener {

  private final ScheduleRepository schedule;
  private final NextDue nextDue;
  private final TransactionTemplate tx;
  private final Clock clock;
  private final MeterRegistry meters;
  private final RecordDecoder<PushReceived> decoder;

  PushReceivedListener(
      ScheduleRepository schedule,
      NextDue nextDue,
      TransactionTemplate tx,
      Clock clock,
      MeterRegistry meters,
      FreshetTopics topics) {
    this.schedule = schedule;
    this.nextDue = nextDue;
    this.tx = tx;
    this.clock = clock;
    this.meters = meters;
    this.decoder = new RecordDecoder<>(topics.pushReceived());
  }

  @KafkaListener(
      id = "push-received",
      idIsGroup = false,
      topics = FreshetTopics.PUSH_RECEIVED,
      containerFactory = "rawListenerFactory")
  void onPush(ConsumerRecord<String, byte[]> record) {
    PushReceived event = decoder.decode(record);
    if (event == null) {
      return;
    }
    UUID id = OutcomeApplier.parseId(event.getSourceId());
    switch (event.getKind()) {
      case notification -> {
        String result =
            schedule
                .requestPushedFetch(id, event.getReceivedAt(), clock.instant())
                .map(r -> "requested")
                .orElse("ignored");
        meters.counter("freshet.scheduler.push.fetches", "result", result).increment();
      }
      case subscription_live -> {
        Instant until = event.getLeaseExpiresAt();
        boolean stored =
            until != null
                && schedule.storePushSubscription(
                    id, until, event.getReceivedAt(), clock.instant());
        subscriptionEvent("live", stored);
      }
      case subscription_ended -> {
        String before = tx.execute(status -> ended(id, event.getReceivedAt()));
        subscriptionEvent("ended", before != null);
        if (PushRules.live(new PushRules.PushState(parse(before), null), clock.instant())) {
          String reason = event.getReason() == null ? "ended" : event.getReason();
          meters.counter("freshet.scheduler.push.returned", "reason", reason).increment();
        }
      }
      default -> subscriptionEvent("unknown", false);
    }
  }

  /**
   * Clears the live mark and brings the due time back to the cadence's.
   *
   * @return the live mark before (ISO instant, "" for none), or null when the event was not applied
   */
  private String ended(UUID id, Instant at) {
    var locked = schedule.lockWithPush(id).orElse(null);
    if (locked == null) {
      return null;
    }
    ScheduleRow row = locked.row();
    Instant now = clock.instant();
    PushRules.PushState before = locked.push();
    if (!schedule.storePushSubscription(id, null, at, now)) {
      return null;
    }
    if (PushRules.live(before, now)) {
      Instant due = PushRules.afterEnded(row, nextDue.recompute(row, now), now);
      if (due != null && !due.equals(row.nextDueAt())) {
        schedule.setNextDue(id, due, now);
      }
    }
    return before.liveUntil() == null ? "" : before.liveUntil().toString();
  }

  private static Instant parse(String instant) {
    return instant == null || instant.isEmpty() ? null : Instant.parse(instant);
  }

  private void subscriptionEvent(String kind, boolean applied) {
    meters
        .counter(
            "freshet.scheduler.push.subscription.events",
            "kind",
            kind,
            "result",
            applied ? "applied" : "ignored")
        .increment();
  }
}
