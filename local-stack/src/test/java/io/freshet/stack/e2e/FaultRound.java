package io.freshet.stack.e2e;

import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.GroundTruth;
import io.freshet.stack.demoweb.ItemVersion;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;

/**
 * A fetch-now round of the item sources (feeds, calendars, APIs) that a fault test interrupts while
 * new versions are in flight. Only item sources: their items stay listed, so a version served in a
 * batch the fault aborts is served again on the refetch; a page version can be replaced before it,
 * and then no client could store it.
 *
 * @param start the instant before the fetch-now requests
 * @param servedBefore versions the demo web had served before the round
 * @param sources how many sources the round fetches
 */
record FaultRound(Instant start, long servedBefore, int sources) {

  /**
   * The demo web of the fault tests: well-behaved hosts, a trace day per 10 wall seconds — enough
   * new items that each round carries some (at 1440x 30 sources publish about 4 a minute), few
   * enough that no feed scrolls a version out of its 20-item window while a fault keeps it unstored
   * (at most 9 items per source in 90 s over the first five minutes).
   */
  static DemoWebSettings webSettings() {
    return DemoWebSettings.defaults().withMisbehaving(false).withScale(8_640);
  }

  /** Versions not yet served that the item sources show now, before a round asks for them. */
  static final int NEW_VERSIONS = 5;

  /**
   * Waits until the item sources show {@link #NEW_VERSIONS} versions no fetch has served yet, asks
   * for a fetch of each item source, and returns as soon as the demo web has served the first new
   * version: a worker's batch is then mid-flight (fetched, its transaction not committed).
   */
  static FaultRound startAndAwaitFirstNewVersionServed(StackFixture stack) throws Exception {
    Map<String, String> itemSources = stack.itemSources();
    awaitNewVersions(stack, itemSources.values());
    long servedBefore = stack.servedTotal();
    Instant start = stack.fetchNow(itemSources.keySet());
    Awaitility.await("the round's first new version served")
        .atMost(Duration.ofMinutes(2))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> stack.servedTotal() > servedBefore);
    return new FaultRound(start, servedBefore, itemSources.size());
  }

  /** Waits until the given sources show {@link #NEW_VERSIONS} versions no fetch has served. */
  static void awaitNewVersions(StackFixture stack, Collection<String> demoIds) {
    Awaitility.await("new versions published for a round")
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> unservedVisible(stack, demoIds) >= NEW_VERSIONS);
  }

  /** Versions the demo web has served that the content store does not hold (yet). */
  static long servedNotStored(StackFixture stack) throws SQLException {
    long stored =
        stack.storedVersionsByDemoId().values().stream().mapToLong(Integer::longValue).sum();
    return stack.servedTotal() - stored;
  }

  /** Versions the given sources show now that no 200 response has carried yet. */
  static int unservedVisible(StackFixture stack, Collection<String> demoIds) {
    long now = stack.web.clock().traceNow();
    GroundTruth truth = stack.web.truth();
    int n = 0;
    for (String id : demoIds) {
      DemoSource source = stack.web.catalog().get(id);
      Set<String> visible =
          source.visibleAt(now).stream().map(ItemVersion::key).collect(Collectors.toSet());
      for (GroundTruth.Entry e : truth.entries(source)) {
        if (e.servedAt() == null && visible.contains(e.version().key())) {
          n++;
        }
      }
    }
    return n;
  }
}
