package io.freshet.scheduler.claims;

import static io.freshet.scheduler.testing.TestEvents.completed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.outcomes.OutcomeApplier;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.scheduler.testing.Settings;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The four integration tests of ADR 0007 (docs/adr/0007-due-selection-in-sql-with-skip-locked.md),
 * and what leases, epochs and the broker add to them.
 */
class ClaimsIT extends SchedulerItSupport {

  @Autowired ClaimRound claimRound;
  @Autowired io.micrometer.core.instrument.MeterRegistry meters;
  @Autowired ScheduleRepository schedule;
  @Autowired NextDue nextDue;
  @Autowired FetchRequestPublisher publisher;
  @Autowired TransactionTemplate tx;
  @Autowired SchedulerProperties props;
  @Autowired OutcomeApplier outcomes;
  @Autowired KafkaTemplate<String, byte[]> fetchRequestTemplate;

  @Test
  void claimsOnlyEnabledSourcesWhoseDueTimeHasCome() {
    UUID neverFetched = source().insert();
    UUID dueLongAgo = source().nextDueAt(Instant.now().minus(Duration.ofHours(2))).insert();
    UUID notDue = source().nextDueAt(Instant.now().plus(Duration.ofHours(1))).insert();
    UUID disabled =
        source().enabled(false).nextDueAt(Instant.now().minus(Duration.ofHours(2))).insert();

    int claimed = claimRound.claimDue();

    assertThat(claimed).isEqualTo(2);
    assertThat(requestedSourceIds()).containsExactlyInAnyOrder(neverFetched, dueLongAgo);
    assertThat(column(notDue, "epoch", Long.class)).isZero();
    assertThat(column(disabled, "epoch", Long.class)).isZero();
    assertThat(instantColumn(neverFetched, "lease_until")).isAfter(Instant.now());
  }

  @Test
  void claimsNoMoreThanTheBatchLimitAndTheRestInTheNextRound() {
    for (int i = 0; i < 3; i++) {
      source().insert();
    }
    ClaimRound twoAtATime = round(withBatchSize(2), publisher);

    assertThat(twoAtATime.claimDue()).isEqualTo(2);
    assertThat(twoAtATime.claimDue()).isEqualTo(1);
    assertThat(twoAtATime.claimDue()).isZero();
    assertThat(requestsOfTenant()).hasSize(3);
  }

  @Test
  void higherPriorityIsClaimedFirst() {
    source().priority(0).nextDueAt(Instant.now().minus(Duration.ofHours(5))).insert();
    UUID urgent = source().priority(10).insert();

    round(withBatchSize(1), publisher).claimDue();

    assertThat(requestedSourceIds()).containsExactly(urgent);
  }

  @Test
  void aRoundTakesPrioritiesFromTheHighestDownAndTheLongestOverdueFirstWithinOne() {
    Instant now = Instant.now();
    source().priority(10).nextDueAt(now.plus(Duration.ofHours(1))).insert(); // not due
    source().priority(10).enabled(false).nextDueAt(now.minus(Duration.ofHours(9))).insert();
    UUID fiveOlder = source().priority(5).nextDueAt(now.minus(Duration.ofHours(3))).insert();
    UUID fiveNewer = source().priority(5).nextDueAt(now.minus(Duration.ofHours(1))).insert();
    UUID zeroOldest = source().priority(0).nextDueAt(now.minus(Duration.ofHours(8))).insert();
    UUID minusOne = source().priority(-1).nextDueAt(now.minus(Duration.ofHours(9))).insert();
    source().priority(-1).nextDueAt(now.plus(Duration.ofHours(1))).insert(); // not due

    ClaimRound one = round(withBatchSize(1), publisher);
    ClaimRound two = round(withBatchSize(2), publisher);

    assertThat(one.claimDue()).isOne();
    assertThat(requestedSourceIds()).containsExactly(fiveOlder);
    assertThat(two.claimDue()).isEqualTo(2);
    assertThat(requestedSourceIds()).containsExactlyInAnyOrder(fiveOlder, fiveNewer, zeroOldest);
    assertThat(two.claimDue()).isOne();
    assertThat(two.claimDue()).isZero();
    assertThat(requestedSourceIds())
        .containsExactlyInAnyOrder(fiveOlder, fiveNewer, zeroOldest, minusOne);
  }

  @Test
  void threeConcurrentSchedulersRequestEachOf1000DueSourcesExactlyOnce() throws Exception {
    for (int i = 0; i < 1000; i++) {
      source().host("host-" + (i % 37) + ".example.org").insert();
    }
    List<Callable<Integer>> schedulers = new ArrayList<>();
    for (int s = 0; s < 3; s++) {
      ClaimRound instance = round(withBatchSize(50), publisher);
      schedulers.add(
          () -> {
            int total = 0;
            for (int n; (n = instance.claimDue()) > 0; ) {
              total += n;
            }
            return total;
          });
    }

    int claimedTotal = 0;
    try (var pool = Executors.newFixedThreadPool(3)) {
      for (var f : pool.invokeAll(schedulers)) {
        claimedTotal += f.get();
      }
    }

    List<FetchRequested> requests = requestsOfTenant();
    Map<String, Long> perSource =
        requests.stream()
            .collect(Collectors.groupingBy(FetchRequested::getSourceId, Collectors.counting()));
    assertThat(claimedTotal).isEqualTo(1000);
    assertThat(requests).hasSize(1000);
    assertThat(perSource).hasSize(1000).allSatisfy((id, count) -> assertThat(count).isOne());
    assertThat(requests).allSatisfy(r -> assertThat(r.getEpoch()).isOne());
    assertThat(
            jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE epoch = 1")
                .query(Long.class)
                .single())
        .isEqualTo(1000);
  }

  @Test
  void theInFlightCapHoldsAcrossSixConcurrentClaimersWhoseRoundsOverlap() throws Exception {
    for (int i = 0; i < 300; i++) {
      source().host("host-" + (i % 11) + ".example.org").insert();
    }
    // 3 instances x 2 claim threads, each round held open 300 ms by a slow broker ack, so every
    // round overlaps the others: counting committed leases alone would let each claim a batch.
    SchedulerProperties capped = Settings.from(props).batchSize(20).maxInFlight(50).build();
    FetchRequestPublisher slowAcks =
        new FetchRequestPublisher(fetchRequestTemplate, topics, 1_048_576) {
          @Override
          public void publishAll(List<Keyed> requests, Duration timeout) {
            try {
              Thread.sleep(300);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            super.publishAll(requests, timeout);
          }
        };
    List<Callable<Integer>> claimers = new ArrayList<>();
    for (int c = 0; c < 6; c++) {
      ClaimRound instance = round(capped, slowAcks);
      claimers.add(
          () -> {
            int total = 0;
            for (int r = 0; r < 4; r++) {
              total += instance.claimDue();
            }
            return total;
          });
    }

    int claimedTotal = 0;
    try (var pool = Executors.newFixedThreadPool(6)) {
      for (var f : pool.invokeAll(claimers)) {
        claimedTotal += f.get();
      }
    }

    long leased =
        jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE lease_until > now()")
            .query(Long.class)
            .single();
    assertThat(claimedTotal).isEqualTo(50);
    assertThat(leased).isEqualTo(50);
    assertThat(requestsOfTenant()).hasSize(50);
    assertThat(
            jdbc.sql("SELECT count(*) FROM scheduler.claim_reservations")
                .query(Long.class)
                .single())
        .as("no reservation outlives its round")
        .isZero();
  }

  @Test
  void aSourceWhoseRequestCannotBeSentDoesNotStopTheOthersAndReleasesItsClaim() {
    UUID ok1 = source().insert();
    UUID ok2 = source().insert();
    String huge = "x".repeat(2_000_000);
    UUID tooLarge =
        source()
            .config("{\"cadence\":{\"mode\":\"always\"},\"selector\":\"" + huge + "\"}")
            .insert();

    int claimed = claimRound.claimDue();

    assertThat(claimed).isEqualTo(3);
    assertThat(requestedSourceIds()).containsExactlyInAnyOrder(ok1, ok2);
    assertThat(instantColumn(tooLarge, "lease_until")).isNull();
    assertThat(column(tooLarge, "last_status", String.class)).isEqualTo("failed");
    assertThat(column(tooLarge, "last_error", String.class)).contains("record limit");
    assertThat(column(tooLarge, "consecutive_misses", Integer.class)).isOne();
    assertThat(instantColumn(tooLarge, "next_due_at"))
        .as("the cadence module's backoff with the tier minimum (pro: 1 h), not a 1-minute formula")
        .isAfter(Instant.now().plus(Duration.ofMinutes(59)));
  }

  @Test
  void brokerDownDuringAClaimRollsItBackAndTheSourcesAreClaimedLater() {
    UUID a = source().insert();
    UUID b = source().insert();
    Instant dueBefore = instantColumn(a, "next_due_at");
    ClaimRound withDeadBroker = round(withBatchSize(10), publisherTo("127.0.0.1:1"));
    var kafkaErrors = new ListAppender<ILoggingEvent>();
    kafkaErrors.start();
    var springKafka = (Logger) LoggerFactory.getLogger("org.springframework.kafka");
    springKafka.addAppender(kafkaErrors);

    try {
      assertThatThrownBy(withDeadBroker::claimDue)
          .isInstanceOf(FetchRequestPublisher.PublishFailedException.class)
          .hasMessageStartingWith("broker acknowledged 0 of 2 requests within");
    } finally {
      springKafka.detachAppender(kafkaErrors);
    }
    assertThat(kafkaErrors.list)
        .as("no ERROR line per record; the round's failure is one summary")
        .noneMatch(e -> e.getLevel() == Level.ERROR);
    assertThat(column(a, "epoch", Long.class)).isZero();
    assertThat(instantColumn(a, "lease_until")).isNull();
    assertThat(instantColumn(a, "next_due_at")).isEqualTo(dueBefore);

    assertThat(claimRound.claimDue()).isEqualTo(2);
    assertThat(requestedSourceIds()).containsExactlyInAnyOrder(a, b);
    assertThat(column(a, "epoch", Long.class)).isOne();
  }

  @Test
  void anExpiredLeaseIsRequestedAgainWithANewEpochAndTheOldOutcomeIsIgnored() {
    UUID id = source().insert();
    ClaimRound shortLeases = round(withLease(Duration.ofSeconds(1)), publisher);
    assertThat(shortLeases.claimDue()).isOne();

    await().atMost(Duration.ofSeconds(15)).until(() -> shortLeases.claimDue() == 1);

    List<FetchRequested> requests = requestsOfTenant();
    assertThat(requests).extracting(FetchRequested::getEpoch).containsExactly(1L, 2L);
    assertThat(requests.get(0).getRequestId()).isNotEqualTo(requests.get(1).getRequestId());
    assertThat(requests.get(1).getNotAfter()).isAfter(requests.get(0).getNotAfter());
    assertThat(outcomes.apply(completed(id, 1, FetchStatus.ok)))
        .isEqualTo(OutcomeApplier.Result.STALE);
    assertThat(outcomes.apply(completed(id, 2, FetchStatus.ok)))
        .isEqualTo(OutcomeApplier.Result.APPLIED);
  }

  @Test
  void theClaimLoopRequestsDueSourcesByItselfOnSeveralThreads() {
    UUID first = source().insert();
    var loop = new ClaimLoop(claimRound, enabledLoop(), java.time.Clock.systemUTC(), meters);
    loop.start();
    try {
      await().atMost(Duration.ofSeconds(15)).until(() -> requestedSourceIds().contains(first));
      UUID later = source().insert();
      await().atMost(Duration.ofSeconds(15)).until(() -> requestedSourceIds().contains(later));
      assertThat(loop.isRunning()).isTrue();
    } finally {
      loop.stop();
    }
    assertThat(loop.isRunning()).isFalse();
    assertThat(requestedSourceIds()).hasSize(2);
  }

  @Test
  void theClaimLoopRidesOutADatabaseOutageAndClaimsWhenItIsBack() {
    UUID due = source().insert();
    var loop = new ClaimLoop(claimRound, enabledLoop(), java.time.Clock.systemUTC(), meters);
    var readiness = new ClaimsHealthIndicator(loop);
    try {
      withDatabaseDown(
          () -> {
            loop.start();
            await()
                .during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(loop::isRunning);
            // Readiness used to stay UP while every round failed.
            await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> readiness.health().getStatus().equals(Status.DOWN));
            assertThat(readiness.health().getDetails()).containsKey("failure");
          });
      await().atMost(Duration.ofSeconds(60)).until(() -> requestedSourceIds().contains(due));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> readiness.health().getStatus().equals(Status.UP));
    } finally {
      loop.stop();
    }
    assertThat(column(due, "epoch", Long.class)).isOne();
    assertThat(meters.find("freshet.scheduler.claim.rounds.failed").counters())
        .isNotEmpty()
        .allSatisfy(c -> assertThat(c.getId().getTag("cause")).isNotBlank());
  }

  @Test
  void aRequestCarriesWhatTheWorkerNeeds() {
    UUID id =
        source()
            .host("news.example.org")
            .config(
                "{\"cadence\":{\"mode\":\"always\"},\"item_limit\":25,\"selectors\":{\"item\":\"article\"}}")
            .cursor("{\"etag\":\"\\\"v7\\\"\",\"last_fetch_at\":\"2026-11-22T08:00:00Z\"}")
            .insert();

    claimRound.claimDue();

    FetchRequested request = requestsOfTenant().getFirst();
    assertThat(request.getSourceId()).isEqualTo(id.toString());
    assertThat(request.getConfig())
        .containsEntry("item_limit", "25")
        .containsEntry("selectors", "{\"item\":\"article\"}")
        .doesNotContainKey("cadence");
    assertThat(request.getCursor()).containsEntry("etag", "\"v7\"");
    assertThat(request.getNotAfter())
        .isEqualTo(
            instantColumn(id, "lease_until").truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
    assertThat(request.getManual()).isFalse();
  }

  private List<UUID> requestedSourceIds() {
    return requestsOfTenant().stream().map(r -> UUID.fromString(r.getSourceId())).toList();
  }

  private ClaimRound round(SchedulerProperties p, FetchRequestPublisher pub) {
    return new ClaimRound(
        schedule, nextDue, pub, jdbc, tx, p, Clock.systemUTC(), new SimpleMeterRegistry());
  }

  private FetchRequestPublisher publisherTo(String bootstrap) {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.MAX_BLOCK_MS_CONFIG, 1_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 2_000);
    var template =
        new KafkaTemplate<>(
            new DefaultKafkaProducerFactory<>(
                config, new StringSerializer(), new ByteArraySerializer()));
    return new FetchRequestPublisher(template, topics, 1_048_576);
  }

  private SchedulerProperties enabledLoop() {
    return Settings.from(props).claiming(2, Duration.ofMillis(200)).build();
  }

  private SchedulerProperties withBatchSize(int batchSize) {
    return Settings.from(props).batchSize(batchSize).build();
  }

  private SchedulerProperties withLease(Duration lease) {
    return Settings.from(props).lease(lease).build();
  }
}
