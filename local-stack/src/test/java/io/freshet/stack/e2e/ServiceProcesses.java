package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.launcher.ManagedProcess;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.awaitility.Awaitility;

/**
 * What a fault test checks of the services after an infrastructure fault it did not restart them
 * for: the very same processes are still running, and each one is ready again by itself.
 */
final class ServiceProcesses {

  private ServiceProcesses() {}

  /** Service (module) → pid of its running process. */
  static Map<String, Long> pids(StackFixture stack) {
    Map<String, Long> out = new TreeMap<>();
    for (ManagedProcess p : stack.services.running()) {
      out.put(p.name(), p.pid());
    }
    return out;
  }

  /**
   * Waits until every service answers 200 on {@code /actuator/health/readiness}, and asserts that
   * they are the processes of {@code before}, alive: none was restarted.
   */
  static void assertSameProcessesReadyAgain(
      StackFixture stack, Map<String, Long> before, Duration atMost) {
    assertThat(before)
        .containsKeys("scheduler-producer", "fetch-worker", "content-sink", "stats-aggregator");
    Awaitility.await("every service ready again by itself")
        .atMost(atMost)
        .pollInterval(Duration.ofSeconds(1))
        .until(() -> before.keySet().stream().allMatch(m -> ready(stack, m)));
    assertThat(pids(stack)).as("no service was restarted").isEqualTo(before);
    assertThat(stack.services.running()).allMatch(ManagedProcess::isAlive, "alive");
  }

  private static boolean ready(StackFixture stack, String module) {
    var s = stack.settings;
    int port =
        switch (module) {
          case "scheduler-producer" -> s.schedulerPort();
          case "fetch-worker" -> s.workerPort();
          case "content-sink" -> s.sinkPort();
          case "stats-aggregator" -> s.statsPort();
          case "push-receiver" -> s.pushPort();
          default -> throw new IllegalArgumentException(module);
        };
    try {
      var r =
          StackFixture.HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness"))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.discarding());
      return r.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
