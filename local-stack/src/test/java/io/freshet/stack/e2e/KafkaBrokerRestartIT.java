package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.demoweb.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The local setup's one broker ({@link io.freshet.stack.launcher.Infrastructure}'s standalone KRaft
 * process) SIGKILLed in the middle of a fetch-now round, with new versions fetched and not yet
 * committed, kept down, and started again on the same data dir and port: every service reconnects
 * by itself (the same processes, ready again), the round completes, and every version the demo web
 * served is stored exactly once.
 */
class KafkaBrokerRestartIT {

  static final int SOURCES = 30;

  /** How long the broker stays down before its restart begins. */
  static final Duration DOWN = Duration.ofSeconds(15);

  static StackFixture stack;

  @BeforeAll
  static void startEverything() throws Exception {
    stack = StackFixture.start("kafka-restart", SOURCES, FaultRound.webSettings());
  }

  @AfterAll
  static void stopEverything() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void theBrokerKilledMidRoundAndRestartedLosesAndDuplicatesNothing() throws Exception {
    Map<String, Long> pids = ServiceProcesses.pids(stack);
    FaultRound round = FaultRound.startAndAwaitFirstNewVersionServed(stack);
    stack.infra.killKafka();
    Instant killedAt = Instant.now();
    long inFlight = FaultRound.servedNotStored(stack);
    long doneAtKill = stack.outcomesAfter(round.start());
    Thread.sleep(DOWN.toMillis());
    stack.infra.restartKafka(); // on a busy machine the broker's own start-up adds to DOWN
    long listeningAfter = Duration.between(killedAt, Instant.now()).toSeconds();

    stack.awaitEveryOutcomeAfter(round.start(), round.sources(), Duration.ofMinutes(5));
    long roundDoneAfter = Duration.between(killedAt, Instant.now()).toSeconds();
    Reconciliation r = stack.awaitReconciled(Duration.ofMinutes(2));
    System.out.println(
        "fault kafka broker SIGKILL with "
            + inFlight
            + " new versions served and not stored, "
            + doneAtKill
            + " of "
            + round.sources()
            + " outcomes applied; restarted after "
            + DOWN.toSeconds()
            + " s, listening "
            + listeningAfter
            + " s and round done "
            + roundDoneAfter
            + " s after the kill, no service restarted: "
            + r.line());
    ServiceProcesses.assertSameProcessesReadyAgain(stack, pids, Duration.ofMinutes(2));
    assertThat(r.exact()).as(r.line()).isTrue();
    assertThat(r.published())
        .as("the round served new versions")
        .isGreaterThan(round.servedBefore());
  }
}
