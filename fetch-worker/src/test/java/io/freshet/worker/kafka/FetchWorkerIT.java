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
    // Kafka client metrics on the service's own factories: the listener's lag, the outputs' sends
    assertThat(meters.find("kafka.consumer.fetch.manager.records.lag.max").meters()).isNotEmpty();
    assertThat(meters.find("kafka.producer.record.send.total").meters()).isNotEmpty();
  }

  @Test
  void anIsolatedTenantsItemsAlsoGoToItsOwnTopicAndNoOtherTenantsDo() {
    out();
    String path = "/feeds/" + UUID.randomUUID();
    web.serve(path, "application/rss+xml", Requests.rss("mine-1", "mine-2"), null);
    String otherPath = "/feeds/" + UUID.randomUUID();
    web.serve(otherPath, "application/rss+xml", Requests.rss("theirs"), null);
    FetchRequested isolated = feedRequest(path).setTenantId("isolated").build();
    FetchRequested other = feedRequest(otherPath).build();
    send(other, null);
    send(isolated, null);
    awaitCompletion(other.getRequestId());
    awaitCompletion(isolated.getRequestId());

    var topic = topics.tenantContent("isolated").orElseThrow();
    assertThat(topic.name()).isEqualTo("freshet.content.fetched.v1.isolated");
    var props = new Properties();
    props.put("bootstrap.servers", Infrastructure.kafka().bootstrapServers());
    props.put("group.id", "tenant-reader-" + UUID.randomUUID());
    props.put("auto.offset.reset", "earliest");
    props.put("isolation.level", "read_committed");
    List<ContentFetched> read = new ArrayList<>();
    var values = topic.valueSerde().deserializer();
    try (var consumer =
        new org.apache.kafka.clients.consumer.KafkaConsumer<>(
            props,
            new org.apache.kafka.common.serialization.StringDeserializer(),
            new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
      consumer.subscribe(List.of(topic.name()));
      await()
          .atMost(WAIT)
          .until(
              () -> {
                for (var r : consumer.poll(Duration.ofMillis(500))) {
                  read.add(values.deserialize(r.topic(), r.value()));
                }
                return read.stream()
                        .filter(c -> c.getRequestId().equals(isolated.getRequestId()))
                        .count()
                    == 2;
              });
    }
    assertThat(read).extracting(ContentFetched::getTenantId).containsOnly("isolated");
    assertThat(read).extracting(ContentFetched::getItemId).doesNotContain("theirs");
    // and the shared topic has both tenants' items, as before
    await().atMost(WAIT).until(() -> out().contentOfRequest(other.getRequestId()).size() == 1);
    assertThat(out().contentOfRequest(isolated.getRequestId())).hasSize(2);
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
    assertThat(
            new String(
                dead.headers().lastHeader("kafka_dlt-original-consumer-group").value(),
                StandardCharsets.UTF_8))
        .as("which consumer rejected it")
        .isEqualTo("freshet-fetch-worker-it");
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
   * The required politeness case at its full size without waiting 200 s: 200 sources on one host
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
    int otherPerHost = 150;
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
    List<String> otherHosts = List.of("127.0.0.1", "[::ffff:127.0.0.1]");
    // One request to the slow host first, answered before the burst: the worker's client then has
    // its connection to the host open, as it would in production. The first request over a new
    // connection reaches the server later after its start than the next over an open one, which
    // shortens the first gap the server sees (by ~300 ms on a cold JVM).
    FetchRequested warmUp = Requests.feed(web.url(base + "/slow/warm-up"), Instant.now()).build();
    records(List.of(record(warmUp, 0)));
    await().atMost(WAIT).until(() -> out().completionOf(warmUp.getRequestId()) != null);

    Instant sentAt = Instant.now();
    Instant notAfter = sentAt.plus(lease);
    Map<String, Integer> slowSourceOf = new java.util.HashMap<>();
    java.util.Set<String> others = new java.util.HashSet<>();
    List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    for (int i = 0; i < slowSources; i++) {
      FetchRequested r =
          Requests.feed(web.url(base + "/slow/" + i), sentAt).setNotAfter(notAfter).build();
      slowSourceOf.put(r.getRequestId(), i);
      records.add(record(r, 0)); // one host's requests share a partition
    }
    for (int i = 0; i < otherPerHost * otherHosts.size(); i++) {
      String host = otherHosts.get(i % otherHosts.size());
      String url = web.url(base + "/other/" + i).replace("localhost", host);
      FetchRequested r = Requests.feed(url, sentAt).setNotAfter(sentAt.plusSeconds(600)).build();
      others.add(r.getRequestId());
      records.add(record(r, 1 + i % 3));
    }
    records(records);

    // Completions as a subscriber sees them (read_committed), and when the last other-host one
    // became visible.
    Map<String, FetchCompleted> done = new java.util.HashMap<>();
    Instant[] othersAnsweredAt = {null};
    java.util.function.Supplier<String> state =
        () -> {
          for (FetchCompleted c : out().completed) {
            if (slowSourceOf.containsKey(c.getRequestId()) || others.contains(c.getRequestId())) {
              done.putIfAbsent(c.getRequestId(), c);
            }
          }
          long answered = done.keySet().stream().filter(others::contains).count();
          if (answered == others.size() && othersAnsweredAt[0] == null) {
            othersAnsweredAt[0] = Instant.now();
          }
          return "others answered " + answered + ", slow answered " + (done.size() - answered);
        };
    String wanted = "others answered " + others.size() + ", slow answered " + slowSources;
    try {
      await()
          .atMost(lease.plusSeconds(15))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> state.get().equals(wanted));
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      throw new AssertionError("not all answered: " + state.get(), e);
    }

    // Every slow-host request answered: those fetched exactly once each and ok, the others
    // expired without a request.
    List<LoggedRequest> slowRequests =
        web.requestsMatching(base + "/slow/[0-9]+").stream()
            .sorted(Comparator.comparing(LoggedRequest::getLoggedDate))
            .toList();
    java.util.Set<Integer> fetched = new java.util.TreeSet<>();
    for (LoggedRequest r : slowRequests) {
      int source = Integer.parseInt(r.getUrl().substring(r.getUrl().lastIndexOf('/') + 1));
      assertThat(fetched.add(source)).as("slow source %d fetched twice", source).isTrue();
    }
    java.util.Set<Integer> answeredOk = new java.util.TreeSet<>();
    slowSourceOf.forEach(
        (requestId, source) -> {
          FetchCompleted c = done.get(requestId);
          if (c.getStatus() == FetchStatus.ok) {
            answeredOk.add(source);
          } else {
            assertThat(c.getStatus())
                .as("slow source %d: %s %s", source, c.getErrorKind(), c.getErrorMessage())
                .isEqualTo(FetchStatus.expired);
            assertThat(c.getAttempts()).isZero();
          }
        });
    assertThat(answeredOk).isEqualTo(fetched);

    // At most one request per second to the slow host. The worker spaces the starts by its own
    // clock (HostPolitenessTest: exactly, on a fake one); the server logs each request (in whole
    // milliseconds) once the client has sent it, and that send latency varies from one request to
    // the next by up to a few tens of milliseconds on this loaded 2-core machine (at worst -34 ms
    // in six runs at load 10-30). So each gap at least 1 s less 100 ms, and — since that jitter
    // does
    // not add up — n requests span at least n - 1 seconds less the same 100 ms.
    List<Instant> slow = slowRequests.stream().map(r -> r.getLoggedDate().toInstant()).toList();
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < slow.size(); i++) {
      gaps.add(Duration.between(slow.get(i - 1), slow.get(i)).toMillis());
    }
    String observed =
        slow.size()
            + " slow-host requests from "
            + slow.getFirst()
            + " to "
            + slow.getLast()
            + ", lease end "
            + notAfter
            + ", gaps (ms) "
            + gaps;
    LOG.info("politeness: {}", observed);
    assertThat(java.util.Collections.min(gaps)).as(observed).isGreaterThanOrEqualTo(900L);
    Duration slowSpan = Duration.between(slow.getFirst(), slow.getLast());
    assertThat(slowSpan)
        .as(observed)
        .isGreaterThanOrEqualTo(Duration.ofSeconds(slow.size() - 1).minusMillis(100));
    // ... and steadily one per second until the lease ended: none after it, no stall, about one
    // per second of the lease after the first (a late wake-up may cost a turn on a loaded machine).
    assertThat(slow.getLast()).as(observed).isBefore(notAfter.plusMillis(100));
    assertThat(java.util.Collections.max(gaps)).as(observed).isLessThan(2_500L);
    long turnsInLease = Duration.between(slow.getFirst(), notAfter).toSeconds() + 1;
    assertThat((long) slow.size()).as(observed).isBetween(turnsInLease - 3, turnsInLease + 1);
    assertThat(slow.size()).as(observed).isGreaterThanOrEqualTo(12);

    // The other hosts at full speed meanwhile: all 300 fetched in less than half the time the slow
    // host took for its ~20, each host all its requests, all ok, and visible to a read_committed
    // subscriber within the first half of the slow host's lease — the slow batch, still waiting for
    // its host, holds back no other batch's output.
    List<LoggedRequest> otherRequests = web.requestsMatching(base + "/other/.*");
    List<Instant> other =
        otherRequests.stream().map(r -> r.getLoggedDate().toInstant()).sorted().toList();
    assertThat(other).hasSize(others.size());
    Duration otherSpan = Duration.between(other.getFirst(), other.getLast());
    Duration visibleAfter = Duration.between(sentAt, othersAnsweredAt[0]);
    LOG.info(
        "politeness: {} other-host requests in {} ms, all answered {} ms after they were sent",
        other.size(),
        otherSpan.toMillis(),
        visibleAfter.toMillis());
    assertThat(otherSpan).as(observed).isLessThan(slowSpan.dividedBy(2));
    for (String host : otherHosts) {
      assertThat(otherRequests.stream().filter(r -> r.getHeader("Host").startsWith(host + ":")))
          .as("requests to %s", host)
          .hasSize(otherPerHost);
    }
    others.forEach(id -> assertThat(done.get(id).getStatus()).isEqualTo(FetchStatus.ok));
    assertThat(visibleAfter).as(observed).isLessThan(lease.dividedBy(2));
  }

  private static void records(List<ProducerRecord<String, byte[]>> records) {
    records.forEach(producer::send);
    producer.flush();
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
