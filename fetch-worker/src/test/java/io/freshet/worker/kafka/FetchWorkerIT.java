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
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(FetchWorkerIT.class);
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

  /**
   * The politeness case at its full size without waiting 200 s: 200 sources on one host
   * with a 1 s delay (all in one partition, as the host key puts them), 300 more on two other host
   * names for the same loopback server, spread over the other partitions. The slow host's requests
   * carry a 20 s lease ({@code not_after}), so about 20 of them are fetched, one per second, and
   * the rest are answered {@code expired} without a request when their turn would come after it
   * (see {@code HostPoliteness}) — which also leaves nothing behind: every request is answered,
   * every batch committed, before the next test.
   */
  @Test
  void twoHundredSourcesOnASlowHostAreFetchedAtMostOncePerSecondWhileOtherHostsRunAtFullSpeed() {
    out();
    int slowSources = 200;
    int fastPerHost = 150;
    Duration lease = Duration.ofSeconds(20);
    String base = "/polite/" + UUID.randomUUID().toString().substring(0, 8);
    web.stub(
        WireMock.get(WireMock.urlPathMatching(base + "/.*"))
            .willReturn(
                WireMock.aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/rss+xml")
                    .withBody(Requests.rss("x"))));
    // WireMock's URLs name "localhost", the slow host (application-it.yml: 1 s); the same server
    // as "127.0.0.1" and as "[::ffff:127.0.0.1]" is two more hosts, without a delay.
    List<String> fastHosts = List.of("127.0.0.1", "[::ffff:127.0.0.1]");
    Instant sentAt = Instant.now();
    Instant notAfter = sentAt.plus(lease);
    Map<String, Integer> slowIndexOfRequest = new java.util.HashMap<>();
    Map<String, String> fastHostOfRequest = new java.util.HashMap<>();
    List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    for (int i = 0; i < slowSources; i++) {
      FetchRequested r =
          Requests.feed(web.url(base + "/slow/" + i), sentAt).setNotAfter(notAfter).build();
      slowIndexOfRequest.put(r.getRequestId(), i);
      records.add(record(r, 0)); // one host's requests share a partition
    }
    for (int i = 0; i < fastPerHost * fastHosts.size(); i++) {
      String host = fastHosts.get(i % fastHosts.size());
      String url = web.url(base + "/fast/" + i).replace("localhost", host);
      FetchRequested r = Requests.feed(url, sentAt).setNotAfter(sentAt.plusSeconds(600)).build();
      fastHostOfRequest.put(r.getRequestId(), host);
      records.add(record(r, 1 + i % 3));
    }
    records.forEach(producer::send);
    producer.flush();

    Map<String, FetchCompleted> done = new java.util.concurrent.ConcurrentHashMap<>();
    Instant[] fastAllDoneAt = {null};
    java.util.function.Supplier<String> state =
        () -> {
          for (FetchCompleted c : out().completed) {
            if (slowIndexOfRequest.containsKey(c.getRequestId())
                || fastHostOfRequest.containsKey(c.getRequestId())) {
              done.putIfAbsent(c.getRequestId(), c);
            }
          }
          long fast = done.keySet().stream().filter(fastHostOfRequest::containsKey).count();
          if (fast == fastHostOfRequest.size() && fastAllDoneAt[0] == null) {
            fastAllDoneAt[0] = Instant.now();
          }
          return "fast answered " + fast + ", slow answered " + (done.size() - fast);
        };
    String wanted = "fast answered " + fastHostOfRequest.size() + ", slow answered " + slowSources;
    try {
      await()
          .atMost(lease.plusSeconds(15))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> state.get().equals(wanted));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("not all answered: " + state.get(), e);
    }

    // Every request was answered; the slow host's fetched ones exactly once each, the others
    // expired without a request.
    List<LoggedRequest> slowRequests =
        web.requestsMatching(base + "/slow/.*").stream()
            .sorted(Comparator.comparing(LoggedRequest::getLoggedDate))
            .toList();
    java.util.Set<Integer> fetched = new java.util.TreeSet<>();
    for (LoggedRequest r : slowRequests) {
      int index = Integer.parseInt(r.getUrl().substring(r.getUrl().lastIndexOf('/') + 1));
      assertThat(fetched.add(index)).as("slow source %d fetched twice", index).isTrue();
    }
    java.util.Set<Integer> answeredOk = new java.util.TreeSet<>();
    slowIndexOfRequest.forEach(
        (requestId, index) -> {
          FetchCompleted c = done.get(requestId);
          if (c.getStatus() == FetchStatus.ok) {
            answeredOk.add(index);
          } else {
            assertThat(c.getStatus())
                .as("slow source %d: %s %s", index, c.getErrorKind(), c.getErrorMessage())
                .isEqualTo(FetchStatus.expired);
            assertThat(c.getAttempts()).isZero();
          }
        });
    assertThat(answeredOk).isEqualTo(fetched);

    // At most one request per second to the slow host. The worker spaces the starts by its own
    // clock; the server logs them (millisecond clock) after the client has sent them, which on a
    // loaded 2-core machine shifts one request by up to tens of milliseconds, never all of them:
    // each gap at least 1 s less 200 ms, and n requests span at least n - 1 seconds less 200 ms.
    List<Instant> slow = slowRequests.stream().map(r -> r.getLoggedDate().toInstant()).toList();
    Duration minGap = Duration.ofDays(1);
    Duration maxGap = Duration.ZERO;
    for (int i = 1; i < slow.size(); i++) {
      Duration gap = Duration.between(slow.get(i - 1), slow.get(i));
      minGap = gap.compareTo(minGap) < 0 ? gap : minGap;
      maxGap = gap.compareTo(maxGap) > 0 ? gap : maxGap;
    }
    String observed =
        slow.size()
            + " slow-host requests from "
            + slow.getFirst()
            + " to "
            + slow.getLast()
            + ", lease end "
            + notAfter
            + ", gaps "
            + minGap.toMillis()
            + "–"
            + maxGap.toMillis()
            + " ms";
    LOG.info("politeness: {}", observed);
    assertThat(minGap).as(observed).isGreaterThanOrEqualTo(Duration.ofMillis(800));
    Duration slowSpan = Duration.between(slow.getFirst(), slow.getLast());
    assertThat(slowSpan)
        .as(observed)
        .isGreaterThanOrEqualTo(Duration.ofSeconds(slow.size() - 1).minusMillis(200));
    // ... and steadily one per second until the lease ended: no request after it, no stall, and
    // about one per second of the lease left after the first (a late start or wake-up may cost a
    // turn or two on a loaded machine).
    assertThat(slow.getLast()).as(observed).isBefore(notAfter.plusMillis(200));
    assertThat(maxGap).as(observed).isLessThan(Duration.ofMillis(2_500));
    long turnsInLease = Duration.between(slow.getFirst(), notAfter).toSeconds() + 1;
    assertThat((long) slow.size()).as(observed).isBetween(turnsInLease - 3, turnsInLease + 1);
    assertThat(slow.size()).as(observed).isGreaterThanOrEqualTo(12);

    // The other hosts at full speed meanwhile: all 300 fetched in less than half the time the slow
    // host took for its ~20, and answered (committed) before the slow host's lease had ended.
    List<Instant> fast =
        web.requestsMatching(base + "/fast/.*").stream()
            .map(r -> r.getLoggedDate().toInstant())
            .sorted()
            .toList();
    assertThat(fast).hasSize(fastHostOfRequest.size());
    Duration fastSpan = Duration.between(fast.getFirst(), fast.getLast());
    LOG.info(
        "politeness: {} other-host requests in {} ms, all answered {} ms before the lease end",
        fast.size(),
        fastSpan.toMillis(),
        fastAllDoneAt[0] == null ? null : Duration.between(fastAllDoneAt[0], notAfter).toMillis());
    assertThat(fastSpan)
        .as(observed + "; fast span %s", fastSpan)
        .isLessThan(slowSpan.dividedBy(2));
    assertThat(fastAllDoneAt[0]).as(observed).isBefore(notAfter);
    fastHostOfRequest
        .keySet()
        .forEach(id -> assertThat(done.get(id).getStatus()).isEqualTo(FetchStatus.ok));
    for (String host : fastHosts) {
      assertThat(
              web.requestsMatching(base + "/fast/.*").stream()
                  .filter(r -> r.getHeader("Host").startsWith(host + ":")))
          .as("requests to %s", host)
          .hasSize(fastPerHost);
    }
  }

  private ProducerRecord<String, byte[]> record(FetchRequested request, int partition) {
    String host = java.net.URI.create(request.getUrl()).getHost();
    byte[] value =
        topics
            .fetchRequested()
            .valueSerde()
            .serializer()
            .serialize(FreshetTopics.FETCH_REQUESTED, request);
    return new ProducerRecord<>(FreshetTopics.FETCH_REQUESTED, partition, host, value);
  }

  static Map<String, String> unused() {
    return Map.of();
  }
}
