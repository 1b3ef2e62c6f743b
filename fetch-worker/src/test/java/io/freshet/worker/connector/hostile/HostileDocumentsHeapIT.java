package io.freshet.worker.connector.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.testsupport.FeedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Peak heap of the hostile documents: each is fetched by the fetch-once command ({@code
 * FetchWorkerApplication fetch ...}, the service's fetch path and default budget) in a child JVM
 * with a 128 MiB heap that exits on the first {@code OutOfMemoryError} (exit code 3). Each child
 * must end by itself with 0 (ok) or 2 (failed) and the outcome {@link HostileDocumentsTest}
 * expects; its exit code, outcome line and heap figures from its GC log are printed (every child
 * shows about 55 MiB before its first collection, start-up included). The body caps are raised to
 * 20 MiB through the environment, as a deployment would.
 */
class HostileDocumentsHeapIT {

  private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  private static final long CHILD_SECONDS = 90;
  private static final Pattern GC_LINE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final List<String> TABLE = new ArrayList<>();
  private static FeedServer server;

  @TempDir static Path logs;

  @BeforeAll
  static void start() {
    server = FeedServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
    System.out.println("hostile documents in a child JVM with -Xmx128m:");
    TABLE.forEach(System.out::println);
  }

  static Stream<HostileDocuments.Case> cases() {
    return HostileDocuments.all(NOW).stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aSmallHeapSurvivesEachHostileDocument(HostileDocuments.Case c) throws Exception {
    server.serve("/" + c.name(), c.contentType(), c.body(), null);
    Path gcLog = logs.resolve(c.name() + ".gc.log");
    Path stdout = logs.resolve(c.name() + ".out");
    Path stderr = logs.resolve(c.name() + ".err");
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse(javaHome()));
    command.add("-Xmx128m");
    command.add("-XX:+ExitOnOutOfMemoryError");
    command.add("-Xlog:gc:file=" + gcLog);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.freshet.worker.FetchWorkerApplication");
    command.addAll(List.of("fetch", "--allow-loopback", "--connector", c.connector().name()));
    if (!c.config().isEmpty()) {
      command.add("--config");
      command.add(JSON.writeValueAsString(c.config()));
    }
    command.add(server.url("/" + c.name()));
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
    Map<String, String> env = builder.environment();
    env.put("FRESHET_HTTP_MAX_BODY_BYTES", Long.toString(20L << 20));
    env.put("FRESHET_HTTP_MAX_DECOMPRESSED_BYTES", Long.toString(20L << 20));

    long started = System.nanoTime();
    Process child = builder.start();
    boolean ended = child.waitFor(CHILD_SECONDS, TimeUnit.SECONDS);
    if (!ended) {
      child.destroyForcibly().waitFor();
    }
    long wallMs = (System.nanoTime() - started) / 1_000_000;
    int exit = ended ? child.exitValue() : -1;
    List<String> out = Files.readAllLines(stdout, StandardCharsets.UTF_8);
    String outcomeLine = out.isEmpty() ? "" : out.get(out.size() - 1);
    JsonNode outcome = outcomeLine.startsWith("{") ? JSON.readTree(outcomeLine) : null;
    String shown = outcomeLine;
    if (outcome instanceof ObjectNode o) {
      o.remove("cursor"); // the seen-digest: long, and nothing to read here
      shown = JSON.writeValueAsString(o);
    }
    long[] heap = heapMb(gcLog);
    String line =
        String.format(
            "hostile %s: exit=%d heap_before_gc_max_mb=%d live_after_gc_max_mb=%d wall_ms=%d %s",
            c.name(), exit, heap[0], heap[1], wallMs, shown);
    System.out.println(line);
    synchronized (TABLE) {
      TABLE.add(line);
    }

    assertThat(ended).as("child ended within %d s: %s", CHILD_SECONDS, line).isTrue();
    assertThat(exit).as("exit code (3 = out of memory): %s%n%s", line, tail(stderr)).isIn(0, 2);
    assertThat(outcome).as("outcome line: %s", line).isNotNull();
    String kind =
        outcome.path("error_kind").isNull() ? null : outcome.path("error_kind").asString();
    assertThat(c.outcomes())
        .as(line)
        .contains(outcome.path("outcome").asString() + (kind == null ? "" : "/" + kind));
    assertThat(outcome.path("items_read").asInt()).isLessThanOrEqualTo(50);
  }

  /**
   * From the child's GC log, in MiB: the largest heap occupancy before a collection (garbage
   * included: the heap the JVM let fill) and the largest after one (what was still reachable, a
   * lower bound of the peak live set).
   */
  private static long[] heapMb(Path gcLog) throws IOException {
    long[] peak = {-1, -1};
    if (!Files.exists(gcLog)) {
      return peak;
    }
    for (String l : Files.readAllLines(gcLog)) {
      Matcher m = GC_LINE.matcher(l);
      if (m.find()) {
        peak[0] = Math.max(peak[0], Long.parseLong(m.group(1)));
        peak[1] = Math.max(peak[1], Long.parseLong(m.group(2)));
      }
    }
    return peak;
  }

  private static String tail(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    return lines.stream().skip(Math.max(0, lines.size() - 20)).collect(Collectors.joining("\n"));
  }

  private static String javaHome() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
