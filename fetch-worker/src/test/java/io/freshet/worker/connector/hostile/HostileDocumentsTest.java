package io.freshet.worker.connector.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.Requests;
import io.freshet.worker.testing.TestFetchPaths;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile documents through the whole fetch path (loopback server, HTTP, parse pool under the
 * service's default budget, windowing): each fetch ends — ok within the item limit, or failed with
 * the expected kind — and what its parse allocated on the parse threads is printed, one line per
 * case, with its wall time. Only robust bounds are asserted (the outcome, the item limit, the
 * allocation budget); the figures are for reading.
 */
class HostileDocumentsTest {

  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private static final int LIMIT = 50;
  private static final long BUDGET_BYTES = TestFetchPaths.parsing().limits().allocatedBytes();
  private static final List<String> TABLE = new ArrayList<>();
  private static FeedServer server;

  private final FakeTime time = new FakeTime(NOW);
  private final HttpFetcher http = TestFetchPaths.fetcher(time, TestFetchPaths.largeBodySettings());
  private final SourceFetcher fetcher =
      TestFetchPaths.sourceFetcher(
          http, new ConnectorOptions(LIMIT, Duration.ofDays(30), Duration.ofDays(60), false), time);

  @BeforeAll
  static void start() {
    server = FeedServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
    System.out.println("hostile documents, parse-thread allocation per fetch:");
    TABLE.forEach(System.out::println);
  }

  @AfterEach
  void reset() {
    server.reset();
    http.close();
  }

  static Stream<HostileDocuments.Case> cases() {
    return HostileDocuments.all(NOW).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  @Timeout(120) // a hang is the failure this guards against; the budget's wall limit is 20 s
  void endsWithinItsBounds(HostileDocuments.Case c) throws Exception {
    server.serve("/" + c.name(), c.contentType(), c.body(), null);
    FetchRequested request =
        Requests.request(c.connector(), server.url("/" + c.name()), NOW)
            .setConfig(c.config())
            .build();

    Map<Long, Long> before = parseThreadBytes();
    long started = System.nanoTime();
    FetchResult result = fetcher.fetch(request, false);
    long wallMs = (System.nanoTime() - started) / 1_000_000;
    long allocated = allocatedSince(before);

    FetchCompleted completed = result.completed();
    String outcome =
        completed.getStatus().name()
            + (completed.getErrorKind() == null ? "" : "/" + completed.getErrorKind());
    String line =
        String.format(
            "hostile %s: status=%s error_kind=%s items=%d parse_alloc_mb=%.1f wall_ms=%d"
                + " body_kb=%d%s",
            c.name(),
            completed.getStatus(),
            completed.getErrorKind(),
            completed.getItems().size(),
            allocated / 1048576.0,
            wallMs,
            c.body().length() / 1024,
            completed.getErrorMessage() == null ? "" : " (" + completed.getErrorMessage() + ")");
    System.out.println(line);
    synchronized (TABLE) {
      TABLE.add(line);
    }

    assertThat(c.outcomes()).as(line).contains(outcome);
    assertThat(completed.getItems()).hasSizeLessThanOrEqualTo(LIMIT);
    // The budget is checked between items and occurrences, so a fetch may pass it by what one
    // step allocates; a quarter of the budget is far more than any step here.
    if (c.metered()) {
      assertThat(allocated).as(line).isLessThan(BUDGET_BYTES + BUDGET_BYTES / 4);
    }
  }

  /** Bytes allocated so far by each parse-pool thread, by thread id. */
  static Map<Long, Long> parseThreadBytes() {
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long[] ids =
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("freshet-parse-"))
            .mapToLong(Thread::threadId)
            .toArray();
    long[] bytes = threads.getThreadAllocatedBytes(ids);
    Map<Long, Long> out = new HashMap<>();
    for (int i = 0; i < ids.length; i++) {
      if (bytes[i] >= 0) {
        out.put(ids[i], bytes[i]);
      }
    }
    return out;
  }

  /** What the parse threads allocated since {@code before} (threads started since count whole). */
  static long allocatedSince(Map<Long, Long> before) {
    long sum = 0;
    for (var e : parseThreadBytes().entrySet()) {
      sum += e.getValue() - before.getOrDefault(e.getKey(), 0L);
    }
    return sum;
  }
}
