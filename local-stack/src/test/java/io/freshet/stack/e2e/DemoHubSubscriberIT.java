package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.PlainAvroDecoder;
import io.freshet.stack.demoweb.DemoHub;
import io.freshet.stack.demoweb.DemoHub.Signing;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.Kind;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The WebSub subscriber cases (those websub.rocks runs for a subscriber) against the demo web's
 * hub, with the real push-receiver (its exec jar, on the real broker, registry and PostgreSQL of
 * the local stack, as {@code ./freshet up} runs it): renew, unsubscribe, bad and missing signatures
 * for each method, a notification to an unknown callback, a replayed notification, and a hub that
 * lets a lease lapse. Subscribe, verify and deny against this hub are {@code PushEndToEndIT}'s.
 *
 * <p>The hub's test hooks ({@link DemoHub#grantLease}, {@link DemoHub#refuseRenewals}, {@link
 * DemoHub#pauseDeliveries}, {@link DemoHub#push}) are set before any source is registered: every
 * lease is 10 s (the receiver renews at 80 %), the timelines notify no one (each notification here
 * is the test's own), and the receiver treats a source no fetch has announced for 30 s as no longer
 * wanting push (a disabled source is unsubscribed within the test). What is asserted is what the
 * receiver publishes on {@code freshet.push.received.v1} (read_committed), what it answers, and its
 * {@code freshet_push_notifications_total} counters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DemoHubSubscriberIT {

  static final int SOURCES = 60;
  static final Duration LEASE = Duration.ofSeconds(10);

  /**
   * How long an event the test caused may take to reach the topics: seconds on a quiet machine; the
   * bound is for a loaded one (e2e classes run two at once), and a pass does not wait for it.
   */
  static final Duration EVENT_WAIT = Duration.ofSeconds(60);

  StackFixture stack;
  PlainAvroDecoder decoder;

  /** Scheduler source id → demo source, of the feeds on the well-behaved hub. */
  final Map<String, DemoSource> good = new TreeMap<>();

  /** Scheduler source id → demo source, of the feeds on the hub that lets leases lapse. */
  final Map<String, DemoSource> lapses = new TreeMap<>();

  String signed; // the signature cases, the unknown callback's marker, renewals
  String replayed;
  String disabled;
  String lapsing;

  final ScheduledExecutorService keepAlive = Executors.newSingleThreadScheduledExecutor();

  @BeforeAll
  void start() throws Exception {
    Instant origin = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
    DemoWebSettings webSettings =
        DemoWebSettings.defaults().withMisbehaving(false).withScale(1440).withOrigin(origin);
    Map<String, String> env =
        Map.of(
            "FRESHET_SCHEDULER_CADENCE_TIME_SCALE", Double.toString(webSettings.scale()),
            "FRESHET_SCHEDULER_CADENCE_TIME_WALL_ORIGIN", origin.toString(),
            "FRESHET_SCHEDULER_CADENCE_TIME_MODEL_ORIGIN", webSettings.traceStart().toString(),
            "FRESHET_PUSH_MAX_SILENCE", "30s",
            "FRESHET_PUSH_ROUND_INTERVAL", "1s");
    stack =
        StackFixture.start(
            "websub",
            SOURCES,
            webSettings,
            1,
            List.of(),
            env,
            web -> {
              web.hub().grantLease(LEASE);
              web.hub().pauseDeliveries(true);
            });
    decoder = new PlainAvroDecoder(stack.settings.registryCcompatUrl());
    stack.demoIdBySourceId.forEach(
        (id, demoId) -> {
          DemoSource s = stack.web.catalog().get(demoId);
          if (s.kind() == Kind.RSS || s.kind() == Kind.ATOM || s.kind() == Kind.JSON_FEED) {
            if (DemoHub.variantOf(s) == DemoHub.Variant.GOOD) {
              good.put(id, s);
            } else if (DemoHub.variantOf(s) == DemoHub.Variant.LAPSES) {
              lapses.put(id, s);
            }
          }
        });
    assertThat(good).as("feeds on the well-behaved hub").hasSizeGreaterThanOrEqualTo(3);
    assertThat(lapses).as("feeds on the lapsing hub").isNotEmpty();
    List<String> ids = new ArrayList<>(good.keySet());
    signed = ids.get(0);
    replayed = ids.get(1);
    disabled = ids.get(2);
    lapsing = lapses.keySet().iterator().next();
    Awaitility.await("every feed on the good hub subscribed and verified")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                good.values().stream().allMatch(s -> !stack.web.hub().callbacks(s).isEmpty())
                    && !stack.web.hub().callbacks(lapses.get(lapsing)).isEmpty());
    // Disabled: the scheduler fetches it no more, so no fetch announces its hub; the receiver
    // unsubscribes it after max-silence (test 7 waits for that while the others run).
    stack.post("/sources/" + disabled + "/disable", "application/json", "");
    // Every other pushing feed is asked for a fetch every 5 s, so a fetch announces its hub well
    // within the shortened max-silence (in production the daily safety-net poll against 3 days):
    // only the disabled source falls silent.
    List<String> keptAnnounced =
        stack.demoIdBySourceId.entrySet().stream()
            .filter(e -> !e.getKey().equals(disabled))
            .filter(e -> DemoHub.variantOf(stack.web.catalog().get(e.getValue())) != null)
            .map(Map.Entry::getKey)
            .toList();
    keepAlive.scheduleWithFixedDelay(
        () -> keptAnnounced.forEach(this::fetchNow), 0, 5, TimeUnit.SECONDS);
    System.out.printf(
        "websub: %d feeds on the good hub; signed %s, replayed %s, disabled %s, lapsing %s%n",
        good.size(), signed, replayed, disabled, lapsing);
  }

  @AfterAll
  void stop() {
    keepAlive.shutdownNow();
    if (stack != null) {
      System.out.println("websub: demo hub " + stack.web.hub().counts());
      System.out.println("websub: receiver " + notificationMeters());
      stack.close();
    }
  }

  /** websub.rocks 301 and 302, each method: 2xx, dropped, no event; then 300: one event each. */
  @Test
  @Order(1)
  void badAndMissingSignaturesAreAcknowledgedAndDroppedValidOnesAskForAFetch() throws Exception {
    DemoSource s = good.get(signed);
    Map<String, Double> before = notificationCounters();
    for (String method : DemoHub.SIGNATURE_METHODS) {
      assertThat(push(s, "wrong secret " + method, method, Signing.WRONG_SECRET))
          .as("a notification signed %s under another key", method)
          .containsExactly(202);
      assertThat(push(s, "unsigned " + method, method, Signing.NONE))
          .as("a notification without X-Hub-Signature")
          .containsExactly(202);
    }
    for (String method : DemoHub.SIGNATURE_METHODS) {
      assertThat(push(s, "valid " + method, method, Signing.VALID))
          .as("a notification signed %s", method)
          .containsExactly(202);
    }
    // One partition per source, in order: the four valid ones' events come after anything the
    // eight bad ones could have caused.
    Awaitility.await("an event per valid notification")
        .atMost(EVENT_WAIT)
        .until(() -> events(signed, "notification").size() >= 4);
    assertThat(events(signed, "notification")).hasSize(4);
    Map<String, Double> after = notificationCounters();
    assertThat(delta(before, after, "signature_mismatch")).isEqualTo(4);
    assertThat(delta(before, after, "signature_missing")).isEqualTo(4);
    assertThat(delta(before, after, "accepted")).isEqualTo(4);
  }

  /** A notification to a callback the receiver never handed out: 404, nothing published. */
  @Test
  @Order(2)
  void aNotificationToAnUnknownCallbackIs404AndPublishesNothing() throws Exception {
    DemoSource s = good.get(signed);
    URI known = stack.web.hub().callbacks(s).getFirst();
    byte[] token = new byte[32];
    ThreadLocalRandom.current().nextBytes(token);
    URI unknown =
        known.resolve(Base64.getUrlEncoder().withoutPadding().encodeToString(token)); // 43 chars
    URI malformed = known.resolve("not-a-token");
    long eventsBefore = allNotificationEvents();
    Map<String, Double> before = notificationCounters();
    byte[] body = "to nobody".getBytes(StandardCharsets.UTF_8);
    for (String method : DemoHub.SIGNATURE_METHODS) {
      assertThat(stack.web.hub().push(unknown, s, body, method, "any secret")).isEqualTo(404);
    }
    assertThat(stack.web.hub().push(malformed, s, body, "sha256", "any secret")).isEqualTo(404);
    // a valid one after them, as a marker: once its event is read, theirs would have been
    assertThat(push(s, "marker", "sha256", Signing.VALID)).containsExactly(202);
    Awaitility.await("the marker's event")
        .atMost(EVENT_WAIT)
        .until(() -> allNotificationEvents() >= eventsBefore + 1);
    assertThat(allNotificationEvents()).isEqualTo(eventsBefore + 1);
    assertThat(delta(before, notificationCounters(), "unknown_callback")).isEqualTo(5);
  }

  /** The same body twice is one event; a different body right after is another. */
  @Test
  @Order(3)
  void aReplayedNotificationAsksOnceAndANewBodyAsksAgain() throws Exception {
    DemoSource s = good.get(replayed);
    Map<String, Double> before = notificationCounters();
    assertThat(push(s, "first", "sha384", Signing.VALID)).containsExactly(202);
    assertThat(push(s, "first", "sha384", Signing.VALID)).as("replayed").containsExactly(202);
    Awaitility.await("the first one's event")
        .atMost(EVENT_WAIT)
        .until(() -> events(replayed, "notification").size() >= 1);
    assertThat(push(s, "second", "sha384", Signing.VALID)).containsExactly(202);
    Awaitility.await("the new body's event")
        .atMost(EVENT_WAIT)
        .until(() -> events(replayed, "notification").size() >= 2);
    Thread.sleep(1000);
    assertThat(events(replayed, "notification")).as("the replay asked for nothing").hasSize(2);
    Map<String, Double> after = notificationCounters();
    assertThat(delta(before, after, "coalesced")).isEqualTo(1);
    assertThat(delta(before, after, "accepted")).isEqualTo(2);
  }

  /** The hub grants 10 s: the receiver renews before each lease ends, and stays live. */
  @Test
  @Order(4)
  void theReceiverRenewsBeforeTheLeaseEnds() throws Exception {
    DemoSource s = good.get(signed);
    Awaitility.await("a subscription made live three times (subscribe, two renewals)")
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> events(signed, "subscription_live").size() >= 3);
    List<GenericRecord> live = events(signed, "subscription_live");
    List<Long> leaseEnds =
        live.stream().map(r -> ((Number) r.get("lease_expires_at")).longValue()).toList();
    assertThat(leaseEnds).as("each renewal extends the lease").isSorted().doesNotHaveDuplicates();
    assertThat(events(signed, "subscription_ended")).as("never lapsed").isEmpty();
    assertThat(stack.web.hub().callbacks(s)).as("one subscription, renewed").hasSize(1);
    assertThat(subscriptionState(signed)).isIn("ACTIVE", "EXPIRING");
    // still delivered to after the renewals
    assertThat(push(s, "after renewals", "sha512", Signing.VALID)).containsExactly(202);
  }

  /**
   * The demo's lapsing hub ({@code /_hub/lapses}) leaves a renewal unverified: the lease lapses,
   * the receiver says so ({@code subscription_ended}, {@code expired}) and subscribes afresh.
   */
  @Test
  @Order(5)
  void aLeaseTheHubLetsLapseEndsTheSubscription() {
    Awaitility.await("subscription_ended (expired)")
        .atMost(Duration.ofSeconds(40))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                events(lapsing, "subscription_ended").stream()
                    .anyMatch(r -> "expired".equals(String.valueOf(r.get("reason")))));
    assertThat(stack.web.hub().counts()).containsKey("renewals.refused");
    Awaitility.await("subscribed afresh and live again")
        .atMost(EVENT_WAIT)
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> events(lapsing, "subscription_live").size() >= 2);
  }

  /** A disabled source falls silent; the receiver unsubscribes, the hub verifies the intent. */
  @Test
  @Order(6)
  void aDisabledSourceIsUnsubscribedAndTheHubVerifiesTheIntent() throws Exception {
    DemoSource s = good.get(disabled);
    URI callback = stack.web.hub().callbacks(s).stream().findFirst().orElse(null);
    Awaitility.await("unsubscribed")
        .atMost(Duration.ofSeconds(75))
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> "UNSUBSCRIBED".equals(subscriptionState(disabled)));
    assertThat(stack.web.hub().counts())
        .as("only the disabled source was unsubscribed")
        .containsEntry("requests.unsubscribe", 1)
        .containsEntry("verifications.unsubscribe.confirmed", 1);
    good.keySet().stream()
        .filter(id -> !id.equals(disabled))
        .forEach(
            id -> {
              try {
                assertThat(subscriptionState(id)).as(id).isNotEqualTo("UNSUBSCRIBED");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(stack.web.hub().callbacks(s)).as("the hub dropped the subscription").isEmpty();
    Awaitility.await("subscription_ended (unsubscribed)")
        .atMost(EVENT_WAIT)
        .until(
            () ->
                events(disabled, "subscription_ended").stream()
                    .anyMatch(r -> "unsubscribed".equals(String.valueOf(r.get("reason")))));
    if (callback != null) {
      byte[] body = "after unsubscribing".getBytes(StandardCharsets.UTF_8);
      assertThat(stack.web.hub().push(callback, s, body, "sha256", "any"))
          .as("a notification to the old callback")
          .isEqualTo(410);
    }
  }

  // ---- helpers

  /** {@code POST /sources/{id}/fetch}; a refusal is only printed (the next round asks again). */
  private void fetchNow(String sourceId) {
    try {
      var r =
          StackFixture.HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(stack.settings.schedulerUrl() + "/sources/" + sourceId + "/fetch"))
                  .header("Authorization", "Bearer " + stack.token)
                  .POST(HttpRequest.BodyPublishers.noBody())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() / 100 != 2) {
        System.out.println("websub: fetch-now of " + sourceId + ": " + r.statusCode());
      }
    } catch (Exception e) {
      System.out.println("websub: fetch-now of " + sourceId + ": " + e);
    }
  }

  private List<Integer> push(DemoSource s, String body, String method, Signing signing)
      throws Exception {
    return stack.web.hub().push(s, body.getBytes(StandardCharsets.UTF_8), method, signing);
  }

  /** The events of {@code kind} for {@code sourceId} on the topic so far (read_committed). */
  private List<GenericRecord> events(String sourceId, String kind) {
    return readAll().stream()
        .filter(
            r ->
                sourceId.equals(String.valueOf(r.get("source_id")))
                    && kind.equals(String.valueOf(r.get("kind"))))
        .toList();
  }

  private long allNotificationEvents() {
    return readAll().stream()
        .filter(r -> "notification".equals(String.valueOf(r.get("kind"))))
        .count();
  }

  private List<GenericRecord> readAll() {
    Properties p = new Properties();
    p.put("bootstrap.servers", stack.settings.bootstrapServers());
    p.put("key.deserializer", ByteArrayDeserializer.class.getName());
    p.put("value.deserializer", ByteArrayDeserializer.class.getName());
    p.put("isolation.level", "read_committed");
    List<GenericRecord> out = new ArrayList<>();
    try (var consumer = new KafkaConsumer<byte[], byte[]>(p)) {
      List<TopicPartition> parts =
          consumer.partitionsFor("freshet.push.received.v1").stream()
              .map(i -> new TopicPartition(i.topic(), i.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      Instant deadline = Instant.now().plusSeconds(20);
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
          && Instant.now().isBefore(deadline)) {
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(200))) {
          out.add(decoder.decode(rec.value()));
        }
      }
    }
    return out;
  }

  private String subscriptionState(String sourceId) throws Exception {
    try (Connection c = stack.connect();
        var st =
            c.prepareStatement(
                "SELECT state FROM push.subscriptions WHERE source_id = ?"
                    + " ORDER BY created_at DESC LIMIT 1")) {
      st.setString(1, sourceId);
      try (ResultSet rs = st.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /** {@code freshet_push_notifications_total} by {@code result}, from the management port. */
  private Map<String, Double> notificationCounters() throws Exception {
    Map<String, Double> out = new TreeMap<>();
    for (String line : notificationMeters().split("; ")) {
      int r = line.indexOf("result=\"");
      if (line.startsWith("freshet_push_notifications_total") && r >= 0) {
        String result = line.substring(r + 8, line.indexOf('"', r + 8));
        out.put(result, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return out;
  }

  private String notificationMeters() {
    return PushEndToEndIT.meters(
        stack.services.managementPort(stack.settings.pushPort()), "freshet_push_notifications");
  }

  private static double delta(Map<String, Double> before, Map<String, Double> after, String key) {
    return after.getOrDefault(key, 0.0) - before.getOrDefault(key, 0.0);
  }
}
