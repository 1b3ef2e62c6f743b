package io.freshet.scheduler.outcomes;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.scheduler.testing.TestEvents;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.PushEventKind;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.Infrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
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
  @Autowired OutcomeApplier applier;
  @Autowired ScheduleRepository schedule;
  @Autowired StatsApplier statsApplier;

  private static io.freshet.schemas.avro.SourceStats stats(UUID id, Instant updatedAt) {
    return io.freshet.schemas.avro.SourceStats.newBuilder()
        .setSourceId(id.toString())
        .setWindowFetches(10)
        .setAvgSignalYield(1.0)
        .setDominantSignalType(io.freshet.schemas.avro.SignalType.informative)
        .setTypeCounts(java.util.Map.of("informative", 10L))
        .setRecentPublishedAt(List.of(updatedAt.minus(Duration.ofMinutes(30))))
        .setPublishIntervalAvg(Duration.ofMinutes(30).toMillis())
        .setChangeRate(2.0)
        .setUpdatedAt(updatedAt)
        .build();
  }

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";

  private void publish(UUID source, Instant receivedAt) throws Exception {
    publish(
        source,
        PushReceived.newBuilder()
            .setSourceId(source.toString())
            .setTenantId(tenant)
            .setSubscriptionId(UUID.randomUUID().toString())
            .setReceivedAt(receivedAt)
            .setHub("https://hub.example/")
            .build());
  }

  private void publishSubscription(
      UUID source, PushEventKind kind, Instant at, Instant leaseEnd, String reason)
      throws Exception {
    publish(
        source,
        PushReceived.newBuilder()
            .setSourceId(source.toString())
            .setTenantId(tenant)
            .setSubscriptionId(UUID.randomUUID().toString())
            .setReceivedAt(at)
            .setHub("https://hub.example/")
            .setKind(kind)
            .setLeaseExpiresAt(leaseEnd)
            .setReason(reason)
            .build());
  }

  private void publish(UUID source, PushReceived event) throws Exception {
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

  private double events(String kind, String result) {
    var c =
        meters
            .find("freshet.scheduler.push.subscription.events")
            .tag("kind", kind)
            .tag("result", result)
            .counter();
    return c == null ? 0 : c.count();
  }

  private double counter(String name, String... tags) {
    var c = meters.find(name).tags(tags).counter();
    return c == null ? 0 : c.count();
  }

  @Test
  void aLiveSubscriptionIsStoredOnceAndItsEndBringsTheSourceBackToItsCadence() throws Exception {
    Instant lastFetch = Instant.now().minus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.MILLIS);
    Instant safetyNet = Instant.now().plus(Duration.ofHours(23)).truncatedTo(ChronoUnit.MILLIS);
    UUID id =
        source()
            .config(HOURLY)
            .cursor("{\"last_fetch_at\":\"" + lastFetch + "\"}")
            .nextDueAt(safetyNet)
            .insert();
    Instant at = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    Instant leaseEnd = at.plus(Duration.ofDays(10));
    double live = events("live", "applied");
    double ignored = events("live", "ignored");
    double returned = counter("freshet.scheduler.push.returned", "reason", "denied");

    publishSubscription(id, PushEventKind.subscription_live, at, leaseEnd, null);
    // A replay of an older event changes nothing.
    publishSubscription(
        id, PushEventKind.subscription_live, at.minusSeconds(5), at.plusSeconds(5), null);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                events("live", "applied") == live + 1 && events("live", "ignored") == ignored + 1);
    assertThat(instantColumn(id, "push_live_until")).isEqualTo(leaseEnd);

    publishSubscription(id, PushEventKind.subscription_ended, at.plusSeconds(1), null, "denied");
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> counter("freshet.scheduler.push.returned", "reason", "denied") == returned + 1);
    assertThat(instantColumn(id, "push_live_until")).isNull();
    // Hourly again: an hour after the last fetch (plus at most 2 min jitter), not the safety net.
    assertThat(instantColumn(id, "next_due_at")).isBefore(lastFetch.plus(Duration.ofMinutes(63)));
  }

  @Test
  void whilePushIsLiveAPollIsOnlyASafetyNetUntilItFindsItemsNoNotificationAnnounced() {
    Instant lastFetch = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
    UUID id =
        source()
            .config(HOURLY)
            .cursor("{\"last_fetch_at\":\"" + lastFetch + "\"}")
            .claimed(1, Instant.now().plus(Duration.ofMinutes(5)))
            .insert();
    Instant leaseEnd = Instant.now().plus(Duration.ofDays(10)).truncatedTo(ChronoUnit.MILLIS);
    jdbc.sql(
            // the notification that asked for this fetch, a second before it ended (not within
            // the event's millisecond: then it would read as arriving after the fetch)
            "UPDATE scheduler.sources SET push_live_until = :until,"
                + " push_received_at = now() - interval '1 second' WHERE id = :id")
        .param("until", java.sql.Timestamp.from(leaseEnd))
        .param("id", id)
        .update();
    double relaxed = counter("freshet.scheduler.push.polls.relaxed");

    var announced = TestEvents.completed(id, 1, FetchStatus.ok);
    announced.setItems(List.of(item("a", ItemNovelty.added)));
    announced.setItemCount(1);
    applier.apply(announced);

    // 24 h after the fetch (the default safety net), plus at most 2 min of jitter.
    assertThat(instantColumn(id, "next_due_at"))
        .isAfter(announced.getFinishedAt().plus(Duration.ofHours(24)).minusSeconds(1))
        .isBefore(announced.getFinishedAt().plus(Duration.ofHours(24)).plusSeconds(125));
    assertThat(instantColumn(id, "push_live_until")).isEqualTo(leaseEnd);
    assertThat(counter("freshet.scheduler.push.polls.relaxed")).isEqualTo(relaxed + 1);
    // The stats the fetch leads to (every fetch does) recompute the due time from the cadence,
    // hourly here: the safety net stands while push is live.
    Instant safetyDue = instantColumn(id, "next_due_at");
    assertThat(instantColumn(id, "lease_until"))
        .as("no claim in flight: stats reschedule")
        .isNull();
    assertThat(statsApplier.apply(stats(id, announced.getFinishedAt().plusSeconds(1)))).isTrue();
    assertThat(instantColumn(id, "stats_updated_at")).isNotNull();
    assertThat(instantColumn(id, "next_due_at")).isEqualTo(safetyDue);

    // The next (safety-net) poll finds an item no notification announced since the last fetch.
    jdbc.sql(
            "UPDATE scheduler.sources SET epoch = 2, lease_until = now() + interval '5 minutes' WHERE id = :id")
        .param("id", id)
        .update();
    double unannounced = counter("freshet.scheduler.push.returned", "reason", "unannounced");
    var surprise = TestEvents.completed(id, 2, FetchStatus.ok);
    surprise.setItems(List.of(item("a", ItemNovelty.seen), item("b", ItemNovelty.added)));
    surprise.setItemCount(1);
    applier.apply(surprise);

    assertThat(instantColumn(id, "push_live_until")).isNull();
    assertThat(instantColumn(id, "next_due_at"))
        .isBefore(surprise.getFinishedAt().plus(Duration.ofMinutes(63)));
    assertThat(counter("freshet.scheduler.push.returned", "reason", "unannounced"))
        .isEqualTo(unannounced + 1);
  }

  @Test
  void theNewItemsOfAFetchAreCountedByWhatAskedForIt() throws Exception {
    UUID id = source().nextDueAt(Instant.now().plus(Duration.ofHours(2))).insert();
    double push = counter("freshet.scheduler.items.new", "trigger", "push");
    double manual = counter("freshet.scheduler.items.new", "trigger", "manual");
    double poll = counter("freshet.scheduler.items.new", "trigger", "poll");

    // A notification's fetch-now: two new items and one seen.
    double requested = count("requested");
    publish(id, Instant.now().truncatedTo(ChronoUnit.MILLIS));
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> count("requested") == requested + 1);
    assertThat(claimAndAnswer(id, 1, 2))
        .containsEntry("push", push + 2)
        .containsEntry("manual", manual)
        .containsEntry("poll", poll);

    // The API's fetch-now, then a cadence claim: each counted under its own trigger.
    schedule.requestFetch(id, Instant.now());
    assertThat(claimAndAnswer(id, 2, 1))
        .containsEntry("push", push + 2)
        .containsEntry("manual", manual + 1);
    assertThat(claimAndAnswer(id, 3, 3)).containsEntry("poll", poll + 3);
    // A fetch that found nothing new counts nothing.
    assertThat(claimAndAnswer(id, 4, 0))
        .containsEntry("push", push + 2)
        .containsEntry("manual", manual + 1)
        .containsEntry("poll", poll + 3);
  }

  /**
   * Claims the source (epoch {@code epoch}), applies an outcome with {@code added} new items and
   * one seen, and returns the new-item counters by trigger.
   */
  private java.util.Map<String, Double> claimAndAnswer(UUID id, long epoch, int added) {
    Instant now = Instant.now();
    assertThat(schedule.claimIds(List.of(id), now, now, now.plus(Duration.ofMinutes(5))))
        .hasSize(1);
    var outcome = TestEvents.completed(id, epoch, FetchStatus.ok);
    List<ItemDigest> items = new java.util.ArrayList<>();
    items.add(item("seen-" + epoch, ItemNovelty.seen));
    for (int i = 0; i < added; i++) {
      items.add(item("new-" + epoch + "-" + i, ItemNovelty.added));
    }
    outcome.setItems(items);
    outcome.setItemCount(added);
    assertThat(applier.apply(outcome)).isEqualTo(OutcomeApplier.Result.APPLIED);
    java.util.Map<String, Double> out = new java.util.HashMap<>();
    for (String trigger : List.of("push", "manual", "poll")) {
      out.put(trigger, counter("freshet.scheduler.items.new", "trigger", trigger));
    }
    return out;
  }

  private static ItemDigest item(String id, ItemNovelty novelty) {
    return ItemDigest.newBuilder().setItemId(id).setContentHash(id).setNovelty(novelty).build();
  }
}
