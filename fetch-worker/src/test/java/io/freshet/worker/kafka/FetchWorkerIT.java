package io.freshet.worker.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.testsupport.FeedServer;
import io.freshet.testsupport.Infrastructure;
import io.freshet.testsupport.RealInfrastructure;
import io.freshet.testsupport.RealInfrastructure.Component;
import io.freshet.worker.testing.Requests;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The worker on the real broker and registry, fetching from a scriptable loopback web server:
 * requests in, items and completions out, read as a subscriber reads them (read_committed).
 */
@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("it")
class FetchWorkerIT {

  private static final Duration WAIT = Duration.ofSeconds(90);
  private static FeedServer web;
  private static KafkaProducer<String, byte[]> producer;
  private static OutputCollector out;

  @Autowired FreshetTopics topics;
  @Autowired io.micrometer.core.instrument.MeterRegistry meters;

  @BeforeAll
  static void start() {
    web = FeedServer.start();
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
  }

  @AfterAll
  static void stop() throws Exception {
    producer.close();
    web.close();
    if (out != null) {
      out.close();
    }
  }

  private OutputCollector out() {
    synchronized (FetchWorkerIT.class) {
      if (out == null) {
        out = new OutputCollector(topics);
      }
      return out;
    }
  }

  private org.apache.kafka.clients.producer.RecordMetadata send(
      FetchRequested request, Integer partition) {
    String host = java.net.URI.create(request.getUrl()).getHost();
    byte[] value =
        topics
            .fetchRequested()
            .valueSerde()
            .serializer()
            .serialize(FreshetTopics.FETCH_REQUESTED, request);
    var sent =
        producer.send(new ProducerRecord<>(FreshetTopics.FETCH_REQUESTED, partition, host, value));
    producer.flush();
    try {
      return sent.get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static long committed(org.apache.kafka.common.TopicPartition partition) throws Exception {
    try (var admin =
        org.apache.kafka.clients.admin.Admin.create(
            Map.<String, Object>of(
                org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                Infrastructure.kafka().bootstrapServers()))) {
      var offset =
          admin
              .listConsumerGroupOffsets("freshet-fetch-worker-it")
              .partitionsToOffsetAndMetadata()
              .get()
              .get(partition);
      return offset == null ? -1 : offset.offset();
    }
  }

  @Test
  void theOffsetIsCommittedWithTheOutputNotBefore() throws Exception {
    out();
    String path = "/slow/" + UUID.randomUUID();
    web.stub(
        WireMock.get(WireMock.urlPathEqualTo(path))
            .willReturn(
                WireMock.aResponse()
                    .withStatus(200)
                    .withBody(Requests.rss("late"))
                    .withFixedDelay(3_000)));
    FetchRequested request = feedRequest(path).build();
    var sent = send(request, 2);
    var partition = new org.apache.kafka.common.TopicPartition(sent.topic(), sent.partition());
    await().atMost(WAIT).until(() -> web.requests(path).size() == 1);
    // Mid-fetch: nothing of it visible, its offset not committed.
    assertThat(committed(partition)).isLessThanOrEqualTo(sent.offset());
    assertThat(out().contentOfRequest(request.getRequestId())).isEmpty();

    FetchCompleted done = awaitCompletion(request.getRequestId());
    assertThat(done.getStatus()).isEqualTo(FetchStatus.ok);
    await().atMost(WAIT).until(() -> out().contentOfRequest(request.getRequestId()).size() == 1);
    await().atMost(WAIT).until(() -> committed(partition) > sent.offset());
  }

  private FetchCompleted awaitCompletion(String requestId) {
    return await().atMost(WAIT).until(() -> out().completionOf(requestId), c -> c != null);
  }

  private static FetchRequested.Builder feedRequest(String path) {
    return Requests.feed(web.url(path), Instant.now()).setNotAfter(Instant.now().plusSeconds(600));
  }

  @Test
  void itemsThenCompletionOutAndOnlyNewOrChangedItemsOnLaterFetches() {
    out();
    String path = "/feeds/" + UUID.randomUUID();
    web.serve(path, "application/rss+xml", Requests.rss("a", "b", "c"), null);
    FetchRequested first = feedRequest(path).build();
    send(first, null);

    FetchCompleted done = awaitCompletion(first.getRequestId());
    assertThat(done.getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(done.getEpoch()).isEqualTo(first.getEpoch());
    assertThat(done.getItemCount()).isEqualTo(3);
    // In the same transaction as the completion (the collector may meet the topics in two polls).
    await().atMost(WAIT).until(() -> out().contentOfRequest(first.getRequestId()).size() >= 3);
    assertThat(out().contentOfRequest(first.getRequestId()))
        .extracting(ContentFetched::getItemId)
        .containsExactlyInAnyOrder("a", "b", "c");

    // The scheduler sends the returned cursor with the next request; the feed is unchanged.
    FetchRequested second =
        feedRequest(path)
            .setSourceId(first.getSourceId())
            .setEpoch(2)
            .setCursor(done.getCursor())
            .build();
    send(second, null);
    FetchCompleted unchanged = awaitCompletion(second.getRequestId());
    assertThat(unchanged.getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(unchanged.getItemCount()).isZero();
    assertThat(unchanged.getItems())
        .extracting(ItemDigest::getNovelty)
        .containsOnly(ItemNovelty.seen);
    assertThat(out().contentOfRequest(second.getRequestId())).isEmpty();

    // One new item.
    web.serve(path, "application/rss+xml", Requests.rss("new", "a", "b", "c"), null);
    FetchRequested third =
        feedRequest(path)
            .setSourceId(first.getSourceId())
            .setEpoch(3)
            .setCursor(unchanged.getCursor())
            .build();
    send(third, null);
    FetchCompleted oneNew = awaitCompletion(third.getRequestId());
    assertThat(oneNew.getItemCount()).isEqualTo(1);
    await().atMost(WAIT).until(() -> !out().contentOfRequest(third.getRequestId()).isEmpty());
    assertThat(out().contentOfRequest(third.getRequestId()))
        .singleElement()
        .satisfies(c -> assertThat(c.getItemId()).isEqualTo("new"));
    assertThat(out().contentOf(first.getSourceId())).hasSize(4);
    assertThat(
            meters
                .get("freshet.worker.fetches")
                .tags("status", "ok", "connector", "feed")
                .counter()
                .count())
        .isGreaterThanOrEqualTo(3);
    assertThat(meters.get("freshet.worker.items").tag("novelty", "seen").counter().count())
        .isGreaterThanOrEqualTo(6);
    assertThat(meters.get("freshet.worker.fetch.duration").timer().count())
        .isGreaterThanOrEqualTo(3);
    // Kafka client metrics on the service's own factories: the listener's lag, the outputs' sends
    assertThat(meters.find("kafka.consumer.fetch.manager.records.lag.max").meters()).isNotEmpty();
    assertThat(meters.find("kafka.producer.record.send.total").meters()).isNotEmpty();
  }

  @Test
  void anExpiredRequestIsAnsweredExpiredWithoutFetching() {
    out();
    String path = "/feeds/" + UUID.randomUUID();
    web.serve(path, "application/rss+xml", Requests.rss("a"), null);
    FetchRequested late = feedRequest(path).setNotAfter(Instant.now().minusSeconds(5)).build();
    send(late, null);
    FetchCompleted done = awaitCompletion(late.getRequestId());
    assertThat(done.getStatus()).isEqualTo(FetchStatus.expired);
    assertThat(done.getCursor()).isNull();
    assertThat(web.requests(path)).isEmpty();
  }

  @Test
  void aPoisonRequestGoesToTheDlqWithItsReasonAndTheNextRequestIsAnswered() {
    out();
    byte[] garbage = "{\"not\": \"avro\"}".getBytes(StandardCharsets.UTF_8);
    producer.send(
        new ProducerRecord<>(FreshetTopics.FETCH_REQUESTED, 0, "poison.example", garbage));
    String path = "/feeds/" + UUID.randomUUID();
    web.serve(path, "application/rss+xml", Requests.rss("a"), null);
    FetchRequested good = feedRequest(path).build();
    send(good, 0);

    assertThat(awaitCompletion(good.getRequestId()).getStatus()).isEqualTo(FetchStatus.ok);
    var dead =
        await()
            .atMost(WAIT)
            .until(
                () ->
                    out().deadLetters.stream()
                        .filter(d -> "poison.example".equals(d.key()))
                        .findFirst()
                        .orElse(null),
                d -> d != null);
    assertThat(dead.value()).isEqualTo(garbage);
    String reason =
        new String(
            dead.headers().lastHeader("kafka_dlt-exception-message").value(),
            StandardCharsets.UTF_8);
    assertThat(reason)
        .contains("topic freshet.fetch.requested.v1 partition 0")
        .contains("magic byte");
  }

  @Test
  void urlsThatLeadToPrivateOrMetadataAddressesAreRefusedWithAClearError() {
    out();
    String path = "/redirect/" + UUID.randomUUID();
    web.stub(
        WireMock.get(WireMock.urlPathEqualTo(path))
            .willReturn(
                WireMock.aResponse()
                    .withStatus(302)
                    .withHeader("Location", "http://169.254.169.254/latest/meta-data/")));
    FetchRequested viaRedirect = feedRequest(path).build();
    FetchRequested direct = Requests.feed("http://10.1.2.3/feed", Instant.now()).build();
    send(viaRedirect, null);
    send(direct, null);
    FetchCompleted redirected = awaitCompletion(viaRedirect.getRequestId());
    assertThat(redirected.getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(redirected.getErrorKind()).isEqualTo("refused_address");
    assertThat(redirected.getErrorMessage()).contains("169.254.169.254");
    FetchCompleted refused = awaitCompletion(direct.getRequestId());
    assertThat(refused.getErrorKind()).isEqualTo("refused_address");
    assertThat(refused.getErrorMessage()).contains("10.1.2.3").contains("private");
  }

  @Test
  void aSlowHostIsFetchedAtMostOncePerSecondWhileAnotherHostProceedsAtFullSpeed() {
    out();
    int slowSources = 12;
    int fastSources = 200;
    String run = UUID.randomUUID().toString().substring(0, 8);
    web.serve("/polite/" + run + "/slow", "application/rss+xml", Requests.rss("s"), null);
    web.serve("/polite/" + run + "/fast", "application/rss+xml", Requests.rss("f"), null);
    // WireMock's URLs name "localhost"; the same server as "127.0.0.1" is a second host.
    String slowUrl = web.url("/polite/" + run + "/slow");
    String fastUrl = web.url("/polite/" + run + "/fast").replace("localhost", "127.0.0.1");
    List<String> slowIds = new ArrayList<>();
    List<String> fastIds = new ArrayList<>();
    for (int i = 0; i < slowSources; i++) {
      FetchRequested r =
          Requests.feed(slowUrl, Instant.now()).setNotAfter(Instant.now().plusSeconds(600)).build();
      slowIds.add(r.getRequestId());
      send(r, 0); // one host's requests share a partition, as the scheduler's key makes them
    }
    for (int i = 0; i < fastSources; i++) {
      FetchRequested r =
          Requests.feed(fastUrl, Instant.now()).setNotAfter(Instant.now().plusSeconds(600)).build();
      fastIds.add(r.getRequestId());
      send(r, 1 + i % 3);
    }
    java.util.function.Supplier<String> state =
        () ->
            "fast done "
                + fastIds.stream().filter(id -> out().completionOf(id) != null).count()
                + ", fast requests seen "
                + web.requests("/polite/" + run + "/fast").size()
                + ", slow done "
                + slowIds.stream().filter(id -> out().completionOf(id) != null).count()
                + ", slow requests seen "
                + web.requests("/polite/" + run + "/slow").size();
    String wanted =
        "fast done "
            + fastSources
            + ", fast requests seen "
            + fastSources
            + ", slow done "
            + slowSources
            + ", slow requests seen "
            + slowSources;
    try {
      await().atMost(WAIT).until(() -> state.get().equals(wanted));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("not all answered: " + state.get(), e);
    }

    List<Instant> slow = times(web.requests("/polite/" + run + "/slow"));
    List<Instant> fast = times(web.requests("/polite/" + run + "/fast"));
    assertThat(slow).hasSize(slowSources);
    assertThat(fast).hasSize(fastSources);
    // The worker spaces the starts of its requests by its own clock; the server logs when each
    // arrived, which scheduling on a loaded 2-core machine shifts by tens of milliseconds either
    // way for a single request, never on average. So: every gap near 1 s, the whole run at least
    // (n - 1) seconds less the jitter of its two ends.
    for (int i = 1; i < slow.size(); i++) {
      assertThat(Duration.between(slow.get(i - 1), slow.get(i)))
          .as("gap before slow-host request %d", i)
          .isGreaterThanOrEqualTo(Duration.ofMillis(800));
    }
    Duration fastSpan = Duration.between(fast.getFirst(), fast.getLast());
    Duration slowSpan = Duration.between(slow.getFirst(), slow.getLast());
    assertThat(slowSpan)
        .isGreaterThanOrEqualTo(Duration.ofSeconds(slowSources - 1).minusMillis(200));
    assertThat(fastSpan).isLessThan(slowSpan.dividedBy(2));
    assertThat(out().completionOf(fastIds.getFirst()).getStatus()).isEqualTo(FetchStatus.ok);
  }

  private static List<Instant> times(List<LoggedRequest> requests) {
    return requests.stream()
        .map(r -> r.getLoggedDate().toInstant())
        .sorted(Comparator.naturalOrder())
        .toList();
  }

  static Map<String, String> unused() {
    return Map.of();
  }
}
