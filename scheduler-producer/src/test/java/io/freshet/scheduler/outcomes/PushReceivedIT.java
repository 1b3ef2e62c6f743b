package io.freshet.scheduler.outcomes;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.Infrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A WebSub notification, as the push-receiver publishes it, becomes the source's fetch-now through
 * the real topic: once per notification, never for a disabled or unknown source.
 */
class PushReceivedIT extends SchedulerItSupport {

  @Autowired MeterRegistry meters;

  private void publish(UUID source, Instant receivedAt) throws Exception {
    var event =
        PushReceived.newBuilder()
            .setSourceId(source.toString())
            .setTenantId(tenant)
            .setSubscriptionId(UUID.randomUUID().toString())
            .setReceivedAt(receivedAt)
            .setHub("https://hub.example/")
            .build();
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    try (var producer =
        new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
      byte[] value =
          topics
              .pushReceived()
              .valueSerde()
              .serializer()
              .serialize(FreshetTopics.PUSH_RECEIVED, event);
      producer
          .send(new ProducerRecord<>(FreshetTopics.PUSH_RECEIVED, source.toString(), value))
          .get();
    }
  }

  private double count(String result) {
    var c = meters.find("freshet.scheduler.push.fetches").tag("result", result).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void aNotificationMakesTheSourceDueNowOnceAndAReplayChangesNothing() throws Exception {
    Instant later = Instant.now().plus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
    UUID id = source().nextDueAt(later).insert();
    UUID disabled = source().nextDueAt(later).enabled(false).insert();
    Instant received = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    double requested = count("requested");
    double ignored = count("ignored");

    publish(id, received);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count("requested") == requested + 1);
    assertThat(instantColumn(id, "next_due_at")).isBeforeOrEqualTo(Instant.now());
    assertThat(column(id, "manual_requested", Boolean.class)).isTrue();
    assertThat(instantColumn(id, "push_received_at")).isEqualTo(received);

    // The same notification again (redelivery, replay), then an older one: nothing changes.
    jdbc.sql(
            "UPDATE scheduler.sources SET next_due_at = :later, manual_requested = false WHERE id = :id")
        .param("later", java.sql.Timestamp.from(later))
        .param("id", id)
        .update();
    publish(id, received);
    publish(id, received.minusSeconds(60));
    // A disabled source and an unknown one are not fetched.
    publish(disabled, received);
    publish(UUID.randomUUID(), received);
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> count("ignored") == ignored + 4);
    assertThat(instantColumn(id, "next_due_at")).isEqualTo(later);
    assertThat(column(id, "manual_requested", Boolean.class)).isFalse();
    assertThat(instantColumn(disabled, "next_due_at")).isEqualTo(later);
    assertThat(count("requested")).isEqualTo(requested + 1);

    // A newer notification asks again.
    publish(id, received.plusSeconds(45));
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count("requested") == requested + 2);
    assertThat(instantColumn(id, "next_due_at")).isBeforeOrEqualTo(Instant.now());
  }
}
