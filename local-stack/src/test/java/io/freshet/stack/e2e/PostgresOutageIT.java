package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL — the scheduler's claims and outcomes, the sink's upserts and the registry's storage —
 * stopped for 30 s in the middle of a fetch-now round and started again on the same data. No
 * service is restarted: each rides the outage out by itself, nothing goes to a DLQ, and a second
 * round after it works end to end; every served version is stored exactly once.
 */
class PostgresOutageIT {

  static final int SOURCES = 30;

  /**
   * Half a trace day per wall second, so that each 10 s between rounds brings new items (~5 trace
   * days: a dozen or more over 30 sources); at the default 1440x it is 4 trace hours, often nothing
   * new.
   */
  static final double SCALE = 43_200;

  static final Duration OUTAGE = Duration.ofSeconds(30);

  static StackFixture stack;

  @BeforeAll
  static void startEverything() throws Exception {
    stack =
        StackFixture.start(
            "pg-outage",
            SOURCES,
            DemoWebSettings.defaults().withMisbehaving(false).withScale(SCALE));
  }

  @AfterAll
  static void stopEverything() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void postgresStoppedForThirtySecondsMidRoundLosesAndDuplicatesNothing() throws Exception {
    Thread.sleep(10_000); // ~5 trace days: new items
    long servedBefore = stack.servedTotal();
    long storedBefore = FaultTools.storedRows(stack);
    int requestsBefore = stack.web.requests();
    Instant roundStart = stack.fetchNowAll();
    // Stop PostgreSQL as soon as the round's fetches flow: the worker has answered its first
    // request; content and outcomes are on their way to the sink and the scheduler.
    Awaitility.await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(2))
        .until(() -> stack.web.requests() > requestsBefore);
    long[] atStop = outcomesAndRows(roundStart);
    int answeredAtStop = stack.web.requests() - requestsBefore;
    Instant stopped = Instant.now();
    stack.infra.stopPostgres();

    // While it is down: the worker (no database) keeps fetching; the scheduler and the sink say
    // they are not ready.
    boolean schedulerNotReady = false;
    boolean sinkNotReady = false;
    while (Duration.between(stopped, Instant.now()).compareTo(OUTAGE) < 0) {
      schedulerNotReady |= FaultTools.readiness(stack.settings.schedulerPort()) == 503;
      sinkNotReady |= FaultTools.readiness(stack.settings.sinkPort()) == 503;
      Thread.sleep(1_000);
    }
    int answeredDuringOutage = stack.web.requests() - requestsBefore - answeredAtStop;
    stack.infra.startPostgres();
    Duration down = Duration.between(stopped, Instant.now());

    // Everything recovers by itself: no service restarted.
    Instant restarted = Instant.now();
    stack.awaitEveryOutcomeAfter(roundStart, SOURCES, Duration.ofSeconds(240));
    Duration caughtUp = Duration.between(restarted, Instant.now());
    Reconciliation afterOutage = stack.awaitReconciled(Duration.ofSeconds(120));
    long servedInRound = stack.servedTotal() - servedBefore;
    long storedInRound = FaultTools.storedRows(stack) - storedBefore;
    Awaitility.await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofSeconds(1))
        .until(
            () ->
                FaultTools.readiness(stack.settings.schedulerPort()) == 200
                    && FaultTools.readiness(stack.settings.sinkPort()) == 200);

    // A round after the outage: the API, claims, fetches, upserts and outcomes all work again.
    Thread.sleep(10_000); // ~5 trace days: new items
    Instant secondRound = stack.fetchNowAll();
    stack.awaitEveryOutcomeAfter(secondRound, SOURCES, Duration.ofSeconds(180));
    Reconciliation r = stack.awaitReconciled(Duration.ofSeconds(120));

    double claimRoundsFailed =
        FaultTools.metric(
            stack, stack.settings.schedulerPort(), "freshet_scheduler_claim_rounds_failed_total");
    long deadLetters = 0;
    for (String topic :
        List.of(
            FreshetTopics.FETCH_REQUESTED,
            FreshetTopics.CONTENT_FETCHED,
            FreshetTopics.FETCH_COMPLETED,
            FreshetTopics.SOURCE_STATS)) {
      deadLetters += FaultTools.readDeadLetters(stack, topic).size();
    }
    System.out.println(
        "fault PostgreSQL stopped "
            + down.toSeconds()
            + " s, from the round's first demo-web response ("
            + answeredAtStop
            + " answered, "
            + atStop[0]
            + " of "
            + SOURCES
            + " outcomes applied, "
            + atStop[1]
            + " of the round's "
            + storedInRound
            + " new rows stored); "
            + answeredDuringOutage
            + " more responses while down; not ready while down: scheduler "
            + schedulerNotReady
            + ", sink "
            + sinkNotReady
            + "; "
            + (long) claimRoundsFailed
            + " claim rounds failed; the round's outcomes all applied "
            + caughtUp.toSeconds()
            + " s after the restart: "
            + afterOutage.line()
            + "; "
            + deadLetters
            + " dead letters; a second round after it: "
            + r.line());
    assertThat(servedInRound).as("the round served new versions").isPositive();
    assertThat(atStop[0])
        .as("outcomes applied when PostgreSQL stopped: the outage hit the round mid-way")
        .isLessThan(SOURCES);
    assertThat(schedulerNotReady).as("scheduler readiness 503 while PostgreSQL is down").isTrue();
    assertThat(sinkNotReady).as("content-sink readiness 503 while PostgreSQL is down").isTrue();
    assertThat(afterOutage.exact()).as("after the outage: " + afterOutage.line()).isTrue();
    assertThat(deadLetters).as("an outage is not a poison record: nothing dead-lettered").isZero();
    assertThat(r.exact()).as(r.line()).isTrue();
  }

  /** Outcomes applied since {@code after} and the round's rows stored so far, in one connection. */
  private static long[] outcomesAndRows(Instant after) throws Exception {
    try (var c = stack.connect();
        var st =
            c.prepareStatement(
                "SELECT (SELECT count(*) FROM scheduler.sources WHERE last_outcome_at >= ?),"
                    + " (SELECT count(*) FROM content.platform_content WHERE first_seen_at >= ?)")) {
      st.setObject(1, java.sql.Timestamp.from(after));
      st.setObject(2, java.sql.Timestamp.from(after));
      try (var rs = st.executeQuery()) {
        rs.next();
        return new long[] {rs.getLong(1), rs.getLong(2)};
      }
    }
  }
}
