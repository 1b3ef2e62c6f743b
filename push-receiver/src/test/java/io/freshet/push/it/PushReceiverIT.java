package io.freshet.push.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.push.hub.SubscriptionRounds;
import io.freshet.push.websub.Signature;
import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.PushEventKind;
import io.freshet.schemas.avro.PushReceived;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.RealInfrastructure;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The receiver against a real broker, registry and PostgreSQL, and a scripted hub on loopback: it
 * learns a source's hub from the fetch topics, subscribes, answers verification only for what it
 * has pending, checks each notification's signature, coalesces, publishes {@code PushReceived},
 * honours a denial, renews, and unsubscribes a source that stops announcing its hub.
 */
@RealInfrastructure
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.DEFINED_PORT)
@ActiveProfiles("it")
class PushReceiverIT {

  private static int port;
  private static String database;
  private static ScriptedHub hub;
  private static KafkaProducer<String, byte[]> producer;

  @Autowired JdbcClient jdbc;
  @Autowired FreshetTopics topics;
  @Autowired SubscriptionRounds rounds;
  @Autowired MeterRegistry meters;
  @Autowired io.freshet.push.store.SubscriptionStore store;

  private final HttpClient http = HttpClient.newHttpClient();

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) throws IOException {
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    database = Infrastructure.postgres().createDatabase("push_receiver_it");
    registry.add("server.port", () -> port);
    registry.add("management.server.port", () -> 0); // actuator's own port: random
    registry.add("freshet.push.public-base-url", () -> "http://127.0.0.1:" + port + "/");
    registry.add("spring.datasource.url", () -> Infrastructure.postgres().jdbcUrl(database));
    registry.add("spring.datasource.username", () -> Infrastructure.postgres().username());
    registry.add("spring.datasource.password", () -> Infrastructure.postgres().password());
  }

  @BeforeAll
  static void start() throws IOException {
    hub = new ScriptedHub();
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    producer =
        new KafkaProducer<>(
            props,
            new org.apache.kafka.common.serialization.StringSerializer(),
            new org.apache.kafka.common.serialization.ByteArraySerializer());
  }

  @AfterAll
  static void stop() {
    hub.close();
    producer.close();
  }

  // --- the fetch path's events ------------------------------------------------------------------

  private void fetched(String source, String url, URI hubUrl, String selfUrl) {
    Instant now = Instant.now();
    var requested =
        FetchRequested.newBuilder()
            .setRequestId(UUID.randomUUID().toString())
            .setSourceId(source)
            .setTenantId("tenant-a")
            .setConnector(Connector.feed)
            .setUrl(url)
            .setEpoch(1)
            .setRequestedAt(now)
            .setDueAt(now)
            .setNotAfter(now.plusSeconds(600))
            .build();
    var completed =
        FetchCompleted.newBuilder()
            .setRequestId(requested.getRequestId())
            .setSourceId(source)
            .setTenantId("tenant-a")
            .setEpoch(1)
            .setStatus(FetchStatus.ok)
            .setHttpStatus(200)
            .setStartedAt(now)
            .setFinishedAt(now)
            .setHubUrl(hubUrl == null ? null : hubUrl.toString())
            .setSelfUrl(selfUrl)
            .build();
    send(
        FreshetTopics.FETCH_REQUESTED,
        "host",
        topics
            .fetchRequested()
            .valueSerde()
            .serializer()
            .serialize(FreshetTopics.FETCH_REQUESTED, requested));
    send(
        FreshetTopics.FETCH_COMPLETED,
        source,
        topics
            .fetchCompleted()
            .valueSerde()
            .serializer()
            .serialize(FreshetTopics.FETCH_COMPLETED, completed));
  }

  private void send(String topic, String key, byte[] value) {
    try {
      producer.send(new ProducerRecord<>(topic, key, value)).get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs rounds until the hub has a request in {@code mode} for {@code topic}; returns the last.
   */
  private Map<String, String> awaitHubRequest(String mode, String topic, int count) {
    Awaitility.await(mode + " of " + topic)
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(
            () -> {
              rounds.round();
              return hub.requests(mode, topic).size() >= count;
            });
    return hub.requests(mode, topic).get(count - 1);
  }

  // --- the hub's side
  // -----------------------------------------------------------------------------

  private HttpResponse<String> get(String callback, Map<String, String> query) throws Exception {
    String q =
        query.entrySet().stream()
            .map(e -> enc(e.getKey()) + "=" + enc(e.getValue()))
            .collect(Collectors.joining("&"));
    return http.send(
        HttpRequest.newBuilder(URI.create(callback + "?" + q)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> post(String callback, byte[] body, String signature)
      throws Exception {
    var b =
        HttpRequest.newBuilder(URI.create(callback))
            .header("Content-Type", "application/atom+xml")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (signature != null) {
      b.header("X-Hub-Signature", signature);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private String state(String source) {
    return jdbc.sql(
            "SELECT state FROM subscriptions WHERE source_id = :s ORDER BY created_at DESC LIMIT 1")
        .param("s", source)
        .query(String.class)
        .single();
  }

  private double notifications(String result) {
    var c = meters.find("freshet.push.notifications").tag("result", result).counter();
    return c == null ? 0 : c.count();
  }

  private List<PushReceived> pushed(String source, Duration within) {
    var props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ConsumerConfig.GROUP_ID_CONFIG, "push-it-" + UUID.randomUUID());
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    var out = new ArrayList<PushReceived>();
    try (var consumer =
        new KafkaConsumer<>(
            props,
            topics.pushReceived().keySerde().deserializer(),
            topics.pushReceived().valueSerde().deserializer())) {
      consumer.subscribe(List.of(FreshetTopics.PUSH_RECEIVED));
      long end = System.nanoTime() + within.toNanos();
      while (System.nanoTime() < end) {
        for (var r : consumer.poll(Duration.ofMillis(300))) {
          if (r.key().equals(source)) {
            out.add(r.value());
          }
        }
      }
    }
    return out;
  }

  // --- the cases
  // ------------------------------------------------------------------------------------

  @Test
  void subscribesVerifiesAcceptsSignedNotificationsAndUnsubscribes() throws Exception {
    String source = "src-" + UUID.randomUUID();
    String topic = "https://blog.example/" + source + "/feed.xml";
    fetched(source, topic, hub.url("/hub"), null);

    var form = awaitHubRequest("subscribe", topic, 1);
    String callback = form.get("hub.callback");
    String secret = form.get("hub.secret");
    assertThat(callback).startsWith("http://127.0.0.1:" + port + "/websub/");
    assertThat(callback.substring(callback.lastIndexOf('/') + 1)).hasSize(43);
    assertThat(form.get("hub.lease_seconds")).isEqualTo("864000");
    assertThat(secret).hasSize(43);
    assertThat(state(source)).isEqualTo("REQUESTED");

    // 205: a verification for another topic is refused; nothing changes.
    var wrongTopic =
        get(
            callback,
            Map.of(
                "hub.mode",
                "subscribe",
                "hub.topic",
                "https://evil.example/",
                "hub.challenge",
                "c1",
                "hub.lease_seconds",
                "600"));
    assertThat(wrongTopic.statusCode()).isEqualTo(404);
    assertThat(wrongTopic.body()).doesNotContain("c1");
    // An unknown callback, and one not shaped like ours. The last character of a 43-character
    // token carries four bits, so it is 'A' one time in sixteen: swap it for another that a token
    // can end with, never for itself.
    String lastChar = callback.endsWith("A") ? "E" : "A";
    assertThat(
            get(
                    callback.substring(0, callback.length() - 1) + lastChar,
                    Map.of(
                        "hub.mode",
                        "subscribe",
                        "hub.topic",
                        topic,
                        "hub.challenge",
                        "c",
                        "hub.lease_seconds",
                        "600"))
                .statusCode())
        .isEqualTo(404);
    assertThat(
            get(
                    "http://127.0.0.1:" + port + "/websub/short",
                    Map.of(
                        "hub.mode",
                        "subscribe",
                        "hub.topic",
                        topic,
                        "hub.challenge",
                        "c",
                        "hub.lease_seconds",
                        "600"))
                .statusCode())
        .isEqualTo(404);

    var ok =
        get(
            callback,
            Map.of(
                "hub.mode",
                "subscribe",
                "hub.topic",
                topic,
                "hub.challenge",
                "challenge-42",
                "hub.lease_seconds",
                "600"));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).isEqualTo("challenge-42");
    assertThat(state(source)).isEqualTo("ACTIVE");
    // A replayed verification now finds nothing pending.
    assertThat(
            get(
                    callback,
                    Map.of(
                        "hub.mode",
                        "subscribe",
                        "hub.topic",
                        topic,
                        "hub.challenge",
                        "again",
                        "hub.lease_seconds",
                        "600"))
                .statusCode())
        .isEqualTo(404);

    // 302 and 301 for every method: acknowledged, dropped, counted.
    byte[] body = "<feed><entry>new</entry></feed>".getBytes(StandardCharsets.UTF_8);
    double missing = notifications("signature_missing");
    double mismatch = notifications("signature_mismatch");
    assertThat(post(callback, body, null).statusCode()).isEqualTo(202);
    for (String method : List.of("sha1", "sha256", "sha384", "sha512")) {
      assertThat(post(callback, body, Signature.sign(method, "not-the-secret", body)).statusCode())
          .isEqualTo(202);
    }
    assertThat(notifications("signature_missing")).isEqualTo(missing + 1);
    assertThat(notifications("signature_mismatch")).isEqualTo(mismatch + 4);

    // 300: a signed notification is 2xx and becomes one PushReceived; a replay within the
    // window coalesces.
    assertThat(post(callback, body, Signature.sign("sha384", secret, body)).statusCode())
        .isEqualTo(202);
    double coalesced = notifications("coalesced");
    assertThat(post(callback, body, Signature.sign("sha384", secret, body)).statusCode())
        .isEqualTo(202);
    assertThat(notifications("coalesced")).isEqualTo(coalesced + 1);
    var all = pushed(source, Duration.ofSeconds(4));
    var events = all.stream().filter(e -> e.getKind() == PushEventKind.notification).toList();
    assertThat(events).hasSize(1);
    // The verification told the scheduler the subscription is live, until the lease the hub gave.
    assertThat(all.getFirst().getKind()).isEqualTo(PushEventKind.subscription_live);
    assertThat(all.getFirst().getLeaseExpiresAt())
        .isBetween(Instant.now().plusSeconds(590), Instant.now().plusSeconds(600));
    assertThat(events.getFirst().getTenantId()).isEqualTo("tenant-a");
    assertThat(events.getFirst().getHub()).isEqualTo(hub.url("/hub").toString());
    assertThat(
            jdbc.sql(
                    "SELECT last_notification_at IS NOT NULL FROM subscriptions WHERE source_id = :s")
                .param("s", source)
                .query(Boolean.class)
                .single())
        .isTrue();

    // A body over max-body-size is refused.
    assertThat(
            post(callback, new byte[70_000], Signature.sign("sha256", secret, new byte[70_000]))
                .statusCode())
        .isEqualTo(413);
    // An unknown callback.
    assertThat(
            post("http://127.0.0.1:" + port + "/websub/" + "A".repeat(43), body, "sha1=00")
                .statusCode())
        .isEqualTo(404);

    // The source stops announcing its hub: unsubscribed, verified, and the callback is gone.
    fetched(source, topic, null, null);
    var unsubscribe = awaitHubRequest("unsubscribe", topic, 1);
    assertThat(unsubscribe.get("hub.callback")).isEqualTo(callback);
    assertThat(unsubscribe).doesNotContainKeys("hub.secret", "hub.lease_seconds");
    assertThat(state(source)).isEqualTo("UNSUBSCRIBING");
    assertThat(
            get(
                    callback,
                    Map.of("hub.mode", "unsubscribe", "hub.topic", topic, "hub.challenge", "bye"))
                .body())
        .isEqualTo("bye");
    assertThat(state(source)).isEqualTo("UNSUBSCRIBED");
    assertThat(post(callback, body, Signature.sign("sha256", secret, body)).statusCode())
        .isEqualTo(410);
    // The scheduler heard that push ended when the unsubscription was sent.
    var last = pushed(source, Duration.ofSeconds(3)).getLast();
    assertThat(last.getKind()).isEqualTo(PushEventKind.subscription_ended);
    assertThat(last.getReason()).isEqualTo("unsubscribed");
  }

  @Test
  void subscribesToTheSelfUrlThroughARedirectingHubAndRenewsBeforeTheLeaseEnds() throws Exception {
    // 200: the feed reports another rel=self: that is the topic. 203/204: the hub redirects (307).
    String source = "src-" + UUID.randomUUID();
    String self = "https://blog.example/" + source + "/self";
    fetched(source, "https://blog.example/" + source + "/fetched", hub.url("/moved"), self);

    var form = awaitHubRequest("subscribe", self, 1);
    String callback = form.get("hub.callback");
    // A short lease: renewed once 80 % of it has passed.
    assertThat(
            get(
                    callback,
                    Map.of(
                        "hub.mode",
                        "subscribe",
                        "hub.topic",
                        self,
                        "hub.challenge",
                        "c",
                        "hub.lease_seconds",
                        "3"))
                .statusCode())
        .isEqualTo(200);
    assertThat(state(source)).isEqualTo("ACTIVE");
    var renewal = awaitHubRequest("subscribe", self, 2);
    assertThat(renewal.get("hub.callback")).as("the same callback").isEqualTo(callback);
    assertThat(state(source)).isEqualTo("EXPIRING");
    assertThat(
            get(
                    callback,
                    Map.of(
                        "hub.mode",
                        "subscribe",
                        "hub.topic",
                        self,
                        "hub.challenge",
                        "r",
                        "hub.lease_seconds",
                        "600"))
                .body())
        .isEqualTo("r");
    assertThat(state(source)).isEqualTo("ACTIVE");
  }

  @Test
  void aRoundThatReadTheRowBeforeAVerificationDoesNotOverwriteIt() throws Exception {
    String source = "src-" + UUID.randomUUID();
    String topic = "https://blog.example/" + source + "/feed.xml";
    fetched(source, topic, hub.url("/hub"), null);
    var form = awaitHubRequest("subscribe", topic, 1);
    String callback = form.get("hub.callback");
    var stale = store.byToken(callback.substring(callback.lastIndexOf('/') + 1)).orElseThrow();

    assertThat(
            get(
                    callback,
                    Map.of(
                        "hub.mode",
                        "subscribe",
                        "hub.topic",
                        topic,
                        "hub.challenge",
                        "c",
                        "hub.lease_seconds",
                        "600"))
                .statusCode())
        .isEqualTo(200);

    assertThat(store.transition(stale, stale.requested(Instant.now()), Instant.now())).isFalse();
    assertThat(state(source)).isEqualTo("ACTIVE");
  }

  @Test
  void aDenialIsAcknowledgedRecordedAndNotRetried() throws Exception {
    String source = "src-" + UUID.randomUUID();
    String topic = "https://blog.example/" + source + "/feed.xml";
    fetched(source, topic, hub.url("/hub"), null);
    var form = awaitHubRequest("subscribe", topic, 1);
    var denied =
        get(
            form.get("hub.callback"),
            Map.of("hub.mode", "denied", "hub.topic", topic, "hub.reason", "not on this hub"));
    assertThat(denied.statusCode()).isEqualTo(200);
    assertThat(state(source)).isEqualTo("DENIED");
    var ended = pushed(source, Duration.ofSeconds(3)).getLast();
    assertThat(ended.getKind()).isEqualTo(PushEventKind.subscription_ended);
    assertThat(ended.getReason()).isEqualTo("denied");
    Thread.sleep(2500); // past verify-timeout
    rounds.round();
    assertThat(hub.requests("subscribe", topic)).hasSize(1);
    assertThat(post(form.get("hub.callback"), new byte[1], "sha1=00").statusCode()).isEqualTo(410);
  }

  @Test
  void aNotModifiedFetchKeepsTheHubAnnouncedAndAnOlderOneDoesNotMoveItBack() throws Exception {
    String source = "src-" + UUID.randomUUID();
    fetched(source, "https://quiet.example/" + source + "/feed.xml", hub.url("/hub"), null);
    Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> announcedAt(source) != null);
    // two hours later: beyond the facts' granularity (1 h), so the 304 moves announced_at
    Instant later =
        announcedAt(source).plusSeconds(7200).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    notModified(source, later);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> later.equals(announcedAt(source)));
    notModified(source, later.minusSeconds(60));
    // A source without a hub is not made one that announces: its row is unchanged.
    String plain = "src-" + UUID.randomUUID();
    fetched(plain, "https://plain.example/" + plain, null, null);
    notModified(plain, later);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                jdbc.sql("SELECT count(*) FROM sources WHERE source_id = :s")
                        .param("s", plain)
                        .query(Long.class)
                        .single()
                    == 1);
    Thread.sleep(500);
    assertThat(announcedAt(plain)).isNull();
    assertThat(announcedAt(source)).isEqualTo(later);
  }

  private Instant announcedAt(String source) {
    return jdbc
        .sql("SELECT announced_at FROM sources WHERE source_id = :s")
        .param("s", source)
        .query(java.sql.Timestamp.class)
        .list()
        .stream()
        .filter(java.util.Objects::nonNull)
        .map(java.sql.Timestamp::toInstant)
        .findFirst()
        .orElse(null);
  }

  private void notModified(String source, Instant at) {
    var completed =
        FetchCompleted.newBuilder()
            .setRequestId(UUID.randomUUID().toString())
            .setSourceId(source)
            .setTenantId("tenant-a")
            .setEpoch(1)
            .setStatus(FetchStatus.not_modified)
            .setHttpStatus(304)
            .setStartedAt(at)
            .setFinishedAt(at)
            .build();
    send(
        FreshetTopics.FETCH_COMPLETED,
        source,
        topics
            .fetchCompleted()
            .valueSerde()
            .serializer()
            .serialize(FreshetTopics.FETCH_COMPLETED, completed));
  }

  @Test
  void aSourceWithCredentialsIsNeverSubscribed() throws Exception {
    String source = "src-" + UUID.randomUUID();
    String topic = "https://private.example/" + source;
    Instant now = Instant.now();
    var requested =
        FetchRequested.newBuilder()
            .setRequestId("r")
            .setSourceId(source)
            .setTenantId("t")
            .setConnector(Connector.feed)
            .setUrl(topic)
            .setEpoch(1)
            .setRequestedAt(now)
            .setDueAt(now)
            .setNotAfter(now)
            .setCredentialsEncrypted(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3}))
            .build();
    send(
        FreshetTopics.FETCH_REQUESTED,
        "h",
        topics
            .fetchRequested()
            .valueSerde()
            .serializer()
            .serialize(FreshetTopics.FETCH_REQUESTED, requested));
    fetched(source + "-other", "https://x.example/" + source, hub.url("/hub"), null);
    var completed =
        FetchCompleted.newBuilder()
            .setRequestId("r")
            .setSourceId(source)
            .setTenantId("t")
            .setEpoch(1)
            .setStatus(FetchStatus.ok)
            .setStartedAt(now)
            .setFinishedAt(now)
            .setHubUrl(hub.url("/hub").toString())
            .build();
    send(
        FreshetTopics.FETCH_COMPLETED,
        source,
        topics
            .fetchCompleted()
            .valueSerde()
            .serializer()
            .serialize(FreshetTopics.FETCH_COMPLETED, completed));
    // The other source (sent after) gets its subscription: by then this one's facts are stored.
    awaitHubRequest("subscribe", "https://x.example/" + source, 1);
    Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                jdbc.sql(
                            "SELECT count(*) FROM sources WHERE source_id = :s AND private AND hub_url IS NOT NULL")
                        .param("s", source)
                        .query(Long.class)
                        .single()
                    == 1);
    rounds.round();
    assertThat(hub.requests("subscribe", topic)).isEmpty();
  }
}
