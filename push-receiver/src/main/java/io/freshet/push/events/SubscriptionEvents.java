package io.freshet.push.events;

import io.freshet.push.websub.Subscription;
import io.freshet.schemas.avro.PushEventKind;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.topic.FreshetTopics;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Locale;
import org.apache.kafka.common.serialization.Serializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;

/**
 * Tells the scheduler when a source's subscription becomes live or stops being live ({@code
 * PushReceived} of kind {@code subscription_live} / {@code subscription_ended} on the receiver's
 * one topic, keyed by source, so they stay in order with its notifications; ADR 0015, "Polling
 * relaxes while push is live").
 *
 * <p>Sent without waiting: a live event lost leaves the source on its normal cadence (the safe
 * side); an ended event lost leaves it on the safety net only until the lease the live event
 * carried ends, when the scheduler stops relying on push by itself. A failed send is logged and
 * counted.
 */
@Component
public class SubscriptionEvents {

  private static final Logger log = LoggerFactory.getLogger(SubscriptionEvents.class);

  /** Why a subscription stopped being live. */
  public enum Ended {
    DENIED,
    UNSUBSCRIBED,
    EXPIRED;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final KafkaTemplate<String, byte[]> producer;
  private final Serializer<PushReceived> serializer;
  private final Clock clock;
  private final MeterRegistry meters;

  public SubscriptionEvents(
      KafkaTemplate<String, byte[]> producer,
      FreshetTopics topics,
      Clock clock,
      MeterRegistry meters) {
    this.producer = producer;
    this.serializer = topics.pushReceived().valueSerde().serializer();
    this.clock = clock;
    this.meters = meters;
  }

  /** The hub verified the subscription (or its renewal): live until its lease ends. */
  public void live(Subscription s) {
    if (s.leaseExpiresAt() == null) {
      return;
    }
    send(
        s,
        base(s).setKind(PushEventKind.subscription_live).setLeaseExpiresAt(s.leaseExpiresAt()),
        "live");
  }

  /** The subscription is no longer live. */
  public void ended(Subscription s, Ended why) {
    send(s, base(s).setKind(PushEventKind.subscription_ended).setReason(why.tag()), why.tag());
  }

  private PushReceived.Builder base(Subscription s) {
    return PushReceived.newBuilder()
        .setSourceId(s.sourceId())
        .setTenantId(s.tenantId())
        .setSubscriptionId(s.id().toString())
        .setReceivedAt(clock.instant())
        .setHub(s.hub().toString());
  }

  private void send(Subscription s, PushReceived.Builder event, String tag) {
    try {
      byte[] value = serializer.serialize(FreshetTopics.PUSH_RECEIVED, event.build());
      producer
          .send(FreshetTopics.PUSH_RECEIVED, s.sourceId(), value)
          .whenComplete(
              (ok, e) -> {
                counted(tag, e == null);
                if (e != null) {
                  log.warn(
                      "could not tell the scheduler that the subscription of source {} is {}: {}",
                      s.sourceId(),
                      tag,
                      e.toString());
                }
              });
    } catch (RuntimeException e) {
      counted(tag, false);
      log.warn(
          "could not tell the scheduler that the subscription of source {} is {}: {}",
          s.sourceId(),
          tag,
          e.toString());
    }
  }

  private void counted(String tag, boolean sent) {
    meters
        .counter(
            "freshet.push.subscription.events", "event", tag, "result", sent ? "sent" : "failed")
        .increment();
  }
}
