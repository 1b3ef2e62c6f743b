package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.demoweb.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
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
    stack = StackFixture.start("pipeline", SOURCES);
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
      Thread.sleep(20_000); // 20 s = 8 trace hours at 1440x: new items and page versions
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
    Thread.sleep(20_000);
    // Only sources whose items stay listed: a page version served to the killed worker can be
    // replaced before the restarted one refetches it, and no client could store that version.
    Map<String, String> itemSources = stack.itemSources();
    int requestsBefore = stack.web.requests();
    Instant roundStart = stack.fetchNow(itemSources.keySet());
    // The worker answers a batch in one transaction: kill it as soon as the demo web has answered
    // the round's first request, so the batch is mid-flight (fetched, nothing committed).
    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> stack.web.requests() > requestsBefore);
    stack.services.kill("fetch-worker");
    int answeredAtKill = stack.web.requests() - requestsBefore;
    long doneAtKill = stack.outcomesAfter(roundStart);
    stack.services.restart("fetch-worker");
    stack.awaitEveryOutcomeAfter(roundStart, itemSources.size());
    Reconciliation r = stack.awaitReconciled();
    System.out.println(
        "fault fetch-worker SIGKILL after "
            + answeredAtKill
            + " demo-web responses and "
            + doneAtKill
            + " of "
            + itemSources.size()
            + " outcomes, restarted: "
            + r.line());
    assertThat(r.exact()).as(r.line()).isTrue();
  }
}
