package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.demoweb.Reconciliation;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The whole pipeline as an operator runs it ({@link StackFixture}): after the first fetches and two
 * rounds of fetch-now, every version the demo web served is stored exactly once, and a plain
 * Confluent-format Avro consumer of {@code freshet.content.fetched.v1} has seen every stored
 * version; a fetch-worker killed with SIGKILL mid-round and restarted loses and duplicates nothing.
 */
class PipelineReconciliationIT {

  static final int SOURCES = 40;

  static StackFixture stack;

  @BeforeAll
  static void startEverything() throws Exception {
    // The fault tests' demo web (a trace day per 10 s): the kill round below waits for new versions
    // to appear, which at the default 1440x took over two minutes.
    stack = StackFixture.start("pipeline", SOURCES, FaultRound.webSettings());
  }

  @AfterAll
  static void stopEverything() {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void everyServedItemVersionIsStoredExactlyOnceAndSeenByAPlainAvroSubscriber() throws Exception {
    for (int round = 1; round <= 2; round++) {
      FaultRound.awaitNewVersions(stack, stack.itemSources().values());
      Instant roundStart = stack.fetchNowAll();
      stack.awaitEveryOutcomeAfter(roundStart, SOURCES);
    }
    assertThat(stack.servedTotal())
        .as("new versions appeared and were fetched")
        .isGreaterThan(2L * SOURCES);
    Reconciliation r = stack.awaitReconciled();
    System.out.println(
        "e2e reconciliation: " + r.line() + " (" + stack.web.truth().summary() + ")");
    assertThat(r.exact()).as(r.line()).isTrue();

    Map<String, Set<String>> onTopic = stack.plainAvroConsumerVersions();
    Map<String, Integer> seen = new HashMap<>();
    onTopic.forEach((k, v) -> seen.put(k, v.size()));
    Reconciliation topic = Reconciliation.of(stack.web.truth().servedCountBySource(), seen);
    System.out.println("e2e subscriber: " + topic.line());
    assertThat(topic.lost()).as(topic.line()).isZero();
  }

  @Test
  void aFetchWorkerKilledMidRoundAndRestartedLosesAndDuplicatesNothing() throws Exception {
    // A round of the item sources once they show new versions, and the kill as soon as the first
    // of them is served: the worker answers a batch in one transaction, so the batch is then
    // mid-flight (fetched, nothing committed). Page sources are left out: a page version served to
    // the killed worker can be replaced before the restarted one refetches it, and no client
    // could store that version.
    FaultRound round = FaultRound.startAndAwaitFirstNewVersionServed(stack);
    stack.services.kill("fetch-worker");
    long inFlight = FaultRound.servedNotStored(stack);
    long doneAtKill = stack.outcomesAfter(round.start());
    stack.services.restart("fetch-worker");
    stack.awaitEveryOutcomeAfter(round.start(), round.sources());
    Reconciliation r = stack.awaitReconciled();
    System.out.println(
        "fault fetch-worker SIGKILL with "
            + inFlight
            + " new versions served and not stored, "
            + doneAtKill
            + " of "
            + round.sources()
            + " outcomes applied, restarted: "
            + r.line());
    assertThat(r.exact()).as(r.line()).isTrue();
    assertThat(r.published())
        .as("the round served new versions")
        .isGreaterThan(round.servedBefore());
  }
}
