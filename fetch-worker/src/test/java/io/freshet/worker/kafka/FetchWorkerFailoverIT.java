package io.freshet.worker.kafka;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.github.tomakehurst.wiremock.stubbing.Scenario;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.test.context.ActiveProfiles;

/**
 * A worker killed (SIGKILL) in the middle of a fetch: its batch's transaction never commits, so the
 * request's offset stays uncommitted and another instance of the group fetches it again; its items
 * and completion arrive once, from the survivor.
 */
@RealInfrastructure({Component.KAFKA, Component.REGISTRY})
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.NONE)
@ActiveProfiles("it")
class FetchWorkerFailoverIT {

  private static final String GROUP = "freshet-fetch-worker-it";
  private static final Duration WAIT = Duration.ofSeconds(120);

  @Autowired FreshetTopics topics;
  @Autowired KafkaListenerEndpointRegistry listeners;

  @Test
  void aWorkerKilledMidFetchIsReplacedAndTheRequestIsFetchedAgainByAnotherInstance()
      throws Exception {
    var mine = listeners.getListenerContainer("fetch-requested");
    try (FeedServer web = FeedServer.start();
        OutputCollector out = new OutputCollector(topics);
        Admin admin =
            Admin.create(
                Map.of(
                    AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    Infrastructure.kafka().bootstrapServers()))) {
      // The first GET hangs (the doomed worker is inside it when killed); later ones answer.
      web.stub(
          get(urlPathEqualTo("/slow-feed"))
              .inScenario("kill")
              .whenScenarioStateIs(Scenario.STARTED)
              .willReturn(
                  aResponse()
                      .withStatus(200)
                      .withBody(Requests.rss("x", "y"))
                      .withFixedDelay(60_000))
              .willSetStateTo("fast"));
      web.stub(
          get(urlPathEqualTo("/slow-feed"))
              .inScenario("kill")
              .whenScenarioStateIs("fast")
              .willReturn(aResponse().withStatus(200).withBody(Requests.rss("x", "y"))));

      mine.stop(); // only the other process consumes until it dies
      Process doomed = startSecondInstance();
      try {
        await().atMost(WAIT).until(() -> doomedOwnsEverything(admin));
        FetchRequested request =
            Requests.feed(web.url("/slow-feed"), Instant.now())
                .setNotAfter(Instant.now().plusSeconds(600))
                .build();
        send(request);
        await().atMost(WAIT).until(() -> web.requests("/slow-feed").size() == 1);
        doomed.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      } finally {
        doomed.destroyForcibly();
        mine.start();
      }
      FetchCompleted done =
          await().atMost(WAIT).until(() -> out.completionOf(lastRequestId), c -> c != null);
      assertThat(done.getStatus()).isEqualTo(FetchStatus.ok);
      // Same transaction, but the collector may meet the two topics in different polls.
      await().atMost(WAIT).until(() -> out.contentOfRequest(lastRequestId).size() >= 2);
      assertThat(out.contentOfRequest(lastRequestId))
          .extracting(ContentFetched::getItemId)
          .containsExactlyInAnyOrder("x", "y");
      assertThat(web.requests("/slow-feed")).hasSize(2);
      assertThat(out.completed.stream().filter(c -> c.getRequestId().equals(lastRequestId)))
          .hasSize(1);
    }
  }

  private String lastRequestId;

  private void send(FetchRequested request) {
    lastRequestId = request.getRequestId();
    var props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, Infrastructure.kafka().bootstrapServers());
    try (var producer =
        new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
      producer.send(
          new ProducerRecord<>(
              FreshetTopics.FETCH_REQUESTED,
              "localhost",
              topics
                  .fetchRequested()
                  .valueSerde()
                  .serializer()
                  .serialize(FreshetTopics.FETCH_REQUESTED, request)));
    }
  }

  /** True when the doomed instance alone holds every partition of the requests topic. */
  private static boolean doomedOwnsEverything(Admin admin) throws Exception {
    var group = admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP);
    List<MemberDescription> members = List.copyOf(group.members());
    long assigned =
        members.stream()
            .flatMap(m -> m.assignment().topicPartitions().stream())
            .filter(tp -> tp.topic().equals(FreshetTopics.FETCH_REQUESTED))
            .count();
    return !members.isEmpty()
        && members.stream().allMatch(m -> m.clientId().startsWith("doomed"))
        && assigned == 4;
  }

  private static Process startSecondInstance() throws Exception {
    return WorkerProcess.start(
        GROUP, List.of(), List.of("--spring.kafka.consumer.client-id=doomed"), "doomed-worker.log");
  }
}
