package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.serde.RecordDecoder;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Turns each {@code PushReceived} (a hub announced that a source changed) into the source's
 * fetch-now, the same one the API's {@code POST /sources/{id}/fetch} makes: the content still comes
 * only from the worker's fetch. Idempotent: a notification no newer than the last one applied to
 * the source changes nothing ({@code scheduler.sources.push_received_at}).
 */
@Component
class PushReceivedListener {

  private final ScheduleRepository schedule;
  private final Clock clock;
  private final MeterRegistry meters;
  private final RecordDecoder<PushReceived> decoder;

  PushReceivedListener(
      ScheduleRepository schedule, Clock clock, MeterRegistry meters, FreshetTopics topics) {
    this.schedule = schedule;
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
    String result =
        schedule
            .requestPushedFetch(id, event.getReceivedAt(), clock.instant())
            .map(r -> "requested")
            .orElse("ignored");
    meters.counter("freshet.scheduler.push.fetches", "result", result).increment();
  }
}
