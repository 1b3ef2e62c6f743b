package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.Reconciliation;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberDescription;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two scheduler instances and two fetch-workers at once, as an operator scales out: a second of
 * each is started beside the first ({@code Services.startInstance}), the workers share the
 * requests' partitions, the schedulers claim from the same table. Through two fetch-now rounds
 * every served version is stored exactly once, both instances of each did part of the work, and no
 * request was claimed, emitted, fetched or answered twice — from the schedulers' epochs and claim
 * counters, the workers' fetch counters, the topics and the content-sink's activity log.
 */
class TwoInstancesIT {

  static final int SOURCES = 30;

  /**
   * Half a trace day per wall second, so that each 20 s between rounds brings new items (~10 trace
   * days: dozens over 30 sources); at the default 1440x it is 8 trace hours, often nothing new.
   */
  static final double SCALE = 43_200;

  static final int ROUNDS = 2;

  static StackFixture stack;

  @BeforeAll
  static void startEverything() throws Exception {
    stack =
        StackFixture.start(
            "two-instances",
            SOURCES,
            DemoWebSettings.defaults().withMisbehaving(false).withScale(SCALE),
            1,
            // no push: the demo hub is on loopback, so refusing private hubs keeps every fetch a
            // claim of the schedulers, which this test counts exactly
            Map.of("FRESHET_PUSH_ALLOW_PRIVATE_HUBS", "false"));
  }

  @AfterAll
  static void stopEverything() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void twoSchedulersAndTwoWorkersClaimAndFetchEveryRequestOnce() throws Exception {
    Instant previousRound = Instant.now();
    FaultTools.Instance scheduler2 = FaultTools.startInstance(stack, "scheduler-producer");
    FaultTools.Instance worker2 = FaultTools.startInstance(stack, "fetch-worker");
    int scheduler1 = stack.settings.schedulerPort();
    int worker1 = stack.settings.workerPort();
    awaitWorkersSharePartitions();

    double claimed1 = claimed(scheduler1);
    double fetched1 = fetched(worker1);
    List<Long> servedPerRound = new java.util.ArrayList<>();
    for (int round = 1; round <= ROUNDS; round++) {
      // ~10 trace days since the previous round: new items (the instances' start counts too)
      Thread.sleep(
          Math.max(0, Duration.between(Instant.now(), previousRound.plusSeconds(20)).toMillis()));
      long servedBefore = stack.servedTotal();
      Instant roundStart = Instant.now();
      // Spread over ~3 s so that both schedulers' claim loops (1 s ticks) find sources due.
      for (String id : stack.demoIdBySourceId.keySet()) {
        stack.fetchNow(Set.of(id));
        Thread.sleep(100);
      }
      stack.awaitEveryOutcomeAfter(roundStart, SOURCES, Duration.ofSeconds(180));
      servedPerRound.add(stack.servedTotal() - servedBefore);
      previousRound = Instant.now();
    }
    Reconciliation r = stack.awaitReconciled(Duration.ofSeconds(120));

    long claimsBy1 = Math.round(claimed(scheduler1) - claimed1);
    long claimsBy2 = Math.round(claimed(scheduler2.port()));
    long fetchesBy1 = Math.round(fetched(worker1) - fetched1);
    long fetchesBy2 = Math.round(fetched(worker2.port()));
    int claimsPerSource = 1 + ROUNDS; // the first fetch, then one per round

    Map<Long, Integer> sourcesByEpoch = new TreeMap<>();
    try (Connection c = stack.connect();
        var st = c.createStatement();
        ResultSet rs =
            st.executeQuery("SELECT epoch, count(*) FROM scheduler.sources GROUP BY epoch")) {
      while (rs.next()) {
        sourcesByEpoch.put(rs.getLong(1), rs.getInt(2));
      }
    }

    var topics = FaultTools.topics(stack);
    var requestReader = topics.fetchRequested().valueSerde().deserializer();
    Map<String, Long> requestsPerClaim =
        FaultTools.readTopic(stack, FreshetTopics.FETCH_REQUESTED).stream()
            .map(rec -> requestReader.deserialize(FreshetTopics.FETCH_REQUESTED, rec.value()))
            .collect(
                Collectors.groupingBy(
                    (FetchRequested q) -> q.getSourceId() + "@" + q.getEpoch(),
                    Collectors.counting()));
    var outcomeReader = topics.fetchCompleted().valueSerde().deserializer();
    Map<String, Long> outcomesPerRequest =
        FaultTools.readTopic(stack, FreshetTopics.FETCH_COMPLETED).stream()
            .map(rec -> outcomeReader.deserialize(FreshetTopics.FETCH_COMPLETED, rec.value()))
            .collect(Collectors.groupingBy(FetchCompleted::getRequestId, Collectors.counting()));

    // The sink hears of outcomes on its own: wait until it has logged every fetch.
    Map<String, String> activity = new HashMap<>();
    Awaitility.await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofSeconds(1))
        .ignoreExceptions()
        .until(
            () -> {
              activity.clear();
              activity.putAll(activityBySource());
              return activity.size() == SOURCES
                  && activity.values().stream()
                      .allMatch(
                          a ->
                              a.equals(claimsPerSource + " fetches, epochs 1.." + claimsPerSource));
            });

    System.out.println(
        "fault two schedulers and two fetch-workers, "
            + ROUNDS
            + " rounds (new versions served "
            + servedPerRound
            + "): claims "
            + claimsBy1
            + " + "
            + claimsBy2
            + ", fetches "
            + fetchesBy1
            + " + "
            + fetchesBy2
            + " (of "
            + SOURCES * ROUNDS
            + "), sources by epoch "
            + sourcesByEpoch
            + ", requests "
            + requestsPerClaim.size()
            + " (most per source and epoch "
            + requestsPerClaim.values().stream().mapToLong(Long::longValue).max().orElse(0)
            + "), outcomes "
            + outcomesPerRequest.size()
            + " (most per request "
            + outcomesPerRequest.values().stream().mapToLong(Long::longValue).max().orElse(0)
            + "): "
            + r.line());

    assertThat(servedPerRound)
        .as("each round served new versions")
        .allSatisfy(n -> assertThat(n).isPositive());
    assertThat(claimsBy1).as("claims by the first scheduler").isPositive();
    assertThat(claimsBy2).as("claims by the second scheduler").isPositive();
    assertThat(claimsBy1 + claimsBy2).as("claims, both schedulers").isEqualTo(SOURCES * ROUNDS);
    assertThat(fetchesBy1).as("fetches by the first worker").isPositive();
    assertThat(fetchesBy2).as("fetches by the second worker").isPositive();
    assertThat(fetchesBy1 + fetchesBy2).as("fetches, both workers").isEqualTo(SOURCES * ROUNDS);
    assertThat(sourcesByEpoch)
        .as("every source claimed once per round, never twice")
        .isEqualTo(Map.of((long) claimsPerSource, SOURCES));
    assertThat(requestsPerClaim)
        .as("one FetchRequested per claim")
        .hasSize(SOURCES * claimsPerSource)
        .allSatisfy((claim, n) -> assertThat(n).as(claim).isOne());
    assertThat(outcomesPerRequest)
        .as("one FetchCompleted per request")
        .hasSize(SOURCES * claimsPerSource)
        .allSatisfy((request, n) -> assertThat(n).as(request).isOne());
    assertThat(activity)
        .as("the content-sink's activity log: one completed fetch per claim")
        .allSatisfy(
            (source, a) ->
                assertThat(a)
                    .isEqualTo(claimsPerSource + " fetches, epochs 1.." + claimsPerSource));
    assertThat(r.exact()).as(r.line()).isTrue();
  }

  /** Both workers' consumers in the group, each with partitions, before any round. */
  private static void awaitWorkersSharePartitions() {
    Properties p = new Properties();
    p.put("bootstrap.servers", stack.settings.bootstrapServers());
    try (Admin admin = Admin.create(p)) {
      Awaitility.await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofSeconds(1))
          .ignoreExceptions()
          .until(
              () -> {
                List<MemberDescription> members =
                    List.copyOf(
                        admin
                            .describeConsumerGroups(List.of("freshet-fetch-worker"))
                            .all()
                            .get()
                            .get("freshet-fetch-worker")
                            .members());
                // freshet.worker.consumers = 4 per instance, 12 partitions: each gets some.
                return members.size() == 8
                    && members.stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty());
              });
    }
  }

  /** Per source: "N fetches, epochs 1..N" when its completed activity rows are epochs 1..N. */
  private static Map<String, String> activityBySource() throws Exception {
    Map<String, String> out = new HashMap<>();
    try (Connection c = stack.connect();
        var st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT source_id, count(*), count(DISTINCT epoch), min(epoch), max(epoch)"
                    + " FROM content.activity_log WHERE completed GROUP BY source_id")) {
      while (rs.next()) {
        long n = rs.getLong(2);
        boolean oneEach = rs.getLong(3) == n && rs.getLong(4) == 1 && rs.getLong(5) == n;
        out.put(
            rs.getString(1),
            oneEach ? n + " fetches, epochs 1.." + n : n + " fetches, epochs " + rs.getLong(3));
      }
    }
    return out;
  }

  private static double claimed(int port) throws Exception {
    return FaultTools.metric(stack, port, "freshet_scheduler_sources_claimed_total");
  }

  private static double fetched(int port) throws Exception {
    return FaultTools.metric(stack, port, "freshet_worker_fetches_total");
  }
}
