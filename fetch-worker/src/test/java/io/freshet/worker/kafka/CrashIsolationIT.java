package io.freshet.worker.kafka;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
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
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.test.context.ActiveProfiles;

/**
 * Worker processes (the exec jar, started as separate JVMs) that die while fetching: a request that
 * kills its worker is found, answered {@code crashed_worker} and dead-lettered, the group does not
 * crash-loop on it, and every other request of its partition is answered once, with its items. Each
 * test prints a reconciliation against what the test served.
 */
@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("it")
class CrashIsolationIT {

  private static final Duration WAIT = Duration.ofSeconds(120);
  private static final int GOOD = 8;

  @Autowired FreshetTopics topics;
  @Autowired KafkaListenerEndpointRegistry listeners;

  private final List<Process> workers = new ArrayList<>();
  private String group;

  @BeforeEach
  void onlyTheChildProcessesConsume() {
    // This JVM's own listener is in another group, but would answer the same requests.
    listeners.getListenerContainer("fetch-requested").stop();
    group = "freshet-fetch-worker-crash-" + System.nanoTime();
  }

  @AfterEach
  void stopWorkers() {
    workers.forEach(Process::destroyForcibly);
    listeners.getListenerContainer("fetch-requested").start();
  }

  @Test
  void aRequestThatKillsItsWorkerIsDeadLetteredAfterOneDeathAloneAndTheRestArriveOnce()
      throws Exception {
    try (FeedServer web = FeedServer.start();
        OutputCollector out = new OutputCollector(topics);
        Admin admin = admin()) {
      // The hostile source's GET never answers in time: the test kills whichever worker is in it,
      // as an OutOfMemoryError with -XX:+ExitOnOutOfMemoryError would.
      web.stub(
          get(urlPathEqualTo("/deadly"))
              .willReturn(aResponse().withStatus(200).withFixedDelay(120_000)));
      Map<String, FetchRequested> good = new LinkedHashMap<>();
      List<FetchRequested> batch = new ArrayList<>();
      for (int i = 0; i < GOOD; i++) {
        web.serve(
            "/good-" + i, "application/rss+xml", Requests.rss("g" + i + "a", "g" + i + "b"), null);
        FetchRequested r = request(Connector.feed, web.url("/good-" + i));
        good.put(r.getRequestId(), r);
        batch.add(r);
        if (i == GOOD / 2) {
          batch.add(request(Connector.feed, web.url("/deadly")));
        }
      }
      FetchRequested deadly = batch.get(GOOD / 2 + 1);

      startAtTheEnd(admin);
      Process first = startWorker(List.of());
      awaitOwnsEveryPartition(admin);
      send(batch);
      // Death 1: the request dies with its whole batch in flight; which one killed it is unknown.
      await().atMost(WAIT).until(() -> web.requests("/deadly").size() == 1);
      kill(first);
      int goodServedBeforeDeath1 = goodRequestsServed(web);
      Process second = startWorker(List.of());
      // Death 2: the batch is fetched one record at a time; the deadly one dies alone.
      await().atMost(WAIT).until(() -> web.requests("/deadly").size() == 2);
      int goodFetchedAloneBeforeDeath2 = goodRequestsServed(web) - goodServedBeforeDeath1;
      kill(second);
      Process third = startWorker(List.of());

      FetchCompleted answer =
          await().atMost(WAIT).until(() -> out.completionOf(deadly.getRequestId()), c -> c != null);
      await()
          .atMost(WAIT)
          .until(() -> good.keySet().stream().allMatch(id -> out.completionOf(id) != null));
      await().atMost(WAIT).until(() -> deadLetterOf(out, deadly) != null);
      // Nothing more to come for the batch: the survivor's transaction is committed.
      int deadlyGets = web.requests("/deadly").size();
      long goodItems = out.content.stream().filter(c -> good.containsKey(c.getRequestId())).count();
      long goodCompletions =
          out.completed.stream().filter(c -> good.containsKey(c.getRequestId())).count();
      long goodDistinctItems =
          out.content.stream()
              .filter(c -> good.containsKey(c.getRequestId()))
              .map(ContentFetched::getItemId)
              .distinct()
              .count();
      System.out.printf(
          "crash isolation reconciliation: requests %d (%d good, 1 deadly), worker deaths 2,"
              + " deadly GETs %d, good fetched alone before death 2: %d; good completions %d,"
              + " good items published %d, stored distinct %d, duplicates %d, lost %d;"
              + " deadly answered %s/%s, dead-lettered 1, third worker alive %s%n",
          batch.size(),
          GOOD,
          deadlyGets,
          goodFetchedAloneBeforeDeath2,
          goodCompletions,
          2L * GOOD,
          goodDistinctItems,
          goodItems - goodDistinctItems,
          2L * GOOD - goodDistinctItems,
          answer.getStatus(),
          answer.getErrorKind(),
          third.isAlive());

      assertThat(answer.getStatus()).isEqualTo(FetchStatus.failed);
      assertThat(answer.getErrorKind()).isEqualTo("crashed_worker");
      assertThat(answer.getCursor()).isNull();
      assertThat(deadlyGets).as("the deadly request is not fetched a third time").isEqualTo(2);
      assertThat(goodFetchedAloneBeforeDeath2)
          .as("after death 1 the requests before the deadly one are fetched again, alone")
          .isEqualTo(GOOD / 2 + 1);
      assertThat(goodCompletions).as("each good request answered once").isEqualTo(GOOD);
      for (FetchRequested r : good.values()) {
        assertThat(out.completionOf(r.getRequestId()).getStatus()).isEqualTo(FetchStatus.ok);
      }
      assertThat(goodItems).as("every good item once").isEqualTo(2L * GOOD);
      assertThat(goodDistinctItems).isEqualTo(2L * GOOD);
      String reason = header(deadLetterOf(out, deadly), "kafka_dlt-exception-message");
      assertThat(reason).contains("crashed_worker");
      assertThat(third.isAlive()).isTrue();
    }
  }

  @Test
  void hostileDocumentsEndWithinTheirBudgetOnASmallHeapAndGoodSourcesAreAnsweredBeside()
      throws Exception {
    try (FeedServer web = FeedServer.start();
        OutputCollector out = new OutputCollector(topics);
        Admin admin = admin()) {
      Map<String, String> hostile = new LinkedHashMap<>();
      web.serve("/secondly.ics", "text/calendar", Hostile.secondlyCalendar(), null);
      web.serve("/many-items.xml", "application/rss+xml", Hostile.rssItems(50_000), null);
      web.serve("/nested.json", "application/json", Hostile.nestedJson(100_000), null);
      web.serve("/nested.html", "text/html", Hostile.nestedHtml(100_000), null);
      List<FetchRequested> batch = new ArrayList<>();
      for (var doc :
          Map.of(
                  "/secondly.ics", Connector.ical,
                  "/many-items.xml", Connector.feed,
                  "/nested.json", Connector.json,
                  "/nested.html", Connector.html)
              .entrySet()) {
        FetchRequested r = request(doc.getValue(), web.url(doc.getKey()));
        hostile.put(r.getRequestId(), doc.getKey());
        batch.add(r);
      }
      Map<String, FetchRequested> good = new LinkedHashMap<>();
      for (int i = 0; i < GOOD; i++) {
        web.serve(
            "/good-" + i, "application/rss+xml", Requests.rss("h" + i + "a", "h" + i + "b"), null);
        FetchRequested r = request(Connector.feed, web.url("/good-" + i));
        good.put(r.getRequestId(), r);
        batch.add(i % 2 == 0 ? 0 : batch.size(), r);
      }

      startAtTheEnd(admin);
      // The service's heap is sized for many fetches at once; this one is small on purpose, and
      // dies at its first OutOfMemoryError instead of limping on.
      Process worker = startWorker(List.of("-Xmx256m", "-XX:+ExitOnOutOfMemoryError"));
      awaitOwnsEveryPartition(admin);
      send(batch);
      await()
          .atMost(WAIT)
          .until(
              () ->
                  batch.stream().allMatch(r -> out.completionOf(r.getRequestId()) != null)
                      || !worker.isAlive());
      boolean survived = worker.isAlive();
      long goodItems = out.content.stream().filter(c -> good.containsKey(c.getRequestId())).count();
      StringBuilder outcomes = new StringBuilder();
      hostile.forEach(
          (id, path) -> {
            FetchCompleted c = out.completionOf(id);
            outcomes
                .append(' ')
                .append(path)
                .append('=')
                .append(c == null ? "none" : c.getStatus() + "/" + c.getErrorKind());
          });
      System.out.printf(
          "hostile documents reconciliation: worker -Xmx256m survived %s; good requests %d,"
              + " answered ok %d, items published %d, received %d, lost %d; hostile:%s%n",
          survived,
          GOOD,
          good.keySet().stream()
              .filter(id -> out.completionOf(id) != null)
              .filter(id -> out.completionOf(id).getStatus() == FetchStatus.ok)
              .count(),
          2L * GOOD,
          goodItems,
          2L * GOOD - goodItems,
          outcomes);

      assertThat(survived).as("the worker is not killed by any of the documents").isTrue();
      for (FetchRequested r : good.values()) {
        assertThat(out.completionOf(r.getRequestId()).getStatus()).isEqualTo(FetchStatus.ok);
      }
      assertThat(goodItems).isEqualTo(2L * GOOD);
      for (String id : hostile.keySet()) {
        assertThat(out.completionOf(id)).as(hostile.get(id)).isNotNull();
      }
    }
  }

  private FetchRequested request(Connector connector, String url) {
    return Requests.request(connector, url, Instant.now())
        .setNotAfter(Instant.now().plusSeconds(600))
        .build();
  }

  private static int goodRequestsServed(FeedServer web) {
    return web.requestsMatching("/good-.*").size();
  }

  private static OutputCollector.DeadLetter deadLetterOf(
      OutputCollector out, FetchRequested request) {
    return out.deadLetters.stream()
        .filter(
            d ->
                new String(d.value(), StandardCharsets.ISO_8859_1).contains(request.getRequestId()))
        .findFirst()
        .orElse(null);
  }

  private static String header(OutputCollector.DeadLetter letter, String name) {
    Header h = letter.headers().lastHeader(name);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private void send(List<FetchRequested> requests) {
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    props.put(ProducerConfig.LINGER_MS_CONFIG, 50);
    try (var producer =
        new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
      var serializer = topics.fetchRequested().valueSerde().serializer();
      for (FetchRequested r : requests) {
        // One key, one partition: the whole batch reaches one worker in one poll.
        producer.send(
            new ProducerRecord<>(
                FreshetTopics.FETCH_REQUESTED,
                "crash-test-host",
                serializer.serialize(FreshetTopics.FETCH_REQUESTED, r)));
      }
    }
  }

  private static Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers()));
  }

  /** Waits until the test group's members (one worker's consumer threads) hold every partition. */
  private void awaitOwnsEveryPartition(Admin admin) {
    await()
        .atMost(WAIT)
        .until(
            () -> {
              ConsumerGroupDescription d =
                  admin.describeConsumerGroups(List.of(group)).all().get().get(group);
              long assigned =
                  d.members().stream()
                      .flatMap(m -> m.assignment().topicPartitions().stream())
                      .filter(tp -> tp.topic().equals(FreshetTopics.FETCH_REQUESTED))
                      .count();
              return assigned == 4;
            });
  }

  /** Requests sent before this test's group existed are other tests' business. */
  private void startAtTheEnd(Admin admin) throws Exception {
    Map<TopicPartition, OffsetSpec> partitions = new HashMap<>();
    for (int p = 0; p < 4; p++) {
      partitions.put(new TopicPartition(FreshetTopics.FETCH_REQUESTED, p), OffsetSpec.latest());
    }
    Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
    admin
        .listOffsets(partitions)
        .all()
        .get()
        .forEach((tp, info) -> ends.put(tp, new OffsetAndMetadata(info.offset())));
    admin.alterConsumerGroupOffsets(group, ends).all().get();
  }

  private static void kill(Process worker) throws InterruptedException {
    worker.destroyForcibly(); // SIGKILL: no shutdown hook, no abort, no offset commit
    assertThat(worker.waitFor(30, TimeUnit.SECONDS)).isTrue();
  }

  private Process startWorker(List<String> jvmOptions) throws Exception {
    Process p =
        WorkerProcess.start(
            group,
            jvmOptions,
            // The deadly request is killed by the test, not ended by a timeout.
            List.of("--freshet.http.total-timeout=200s"),
            "crash-worker-" + workers.size() + ".log");
    workers.add(p);
    return p;
  }
}
