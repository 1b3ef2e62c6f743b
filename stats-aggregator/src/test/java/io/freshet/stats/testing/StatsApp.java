package io.freshet.stats.testing;

import io.freshet.stats.app.StatsAggregatorApplication;
import io.freshet.stats.app.StatsStreams;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One stats-aggregator instance for an *IT, in this JVM ({@link #start}) or in a child JVM that a
 * test can kill abruptly ({@link #startChild}).
 */
public final class StatsApp implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  /** The bootstrap admin key every test instance accepts ({@code freshet.security.admin-key}). */
  public static final String ADMIN_KEY = "it-admin-key-0123456789abcdefghijklmnopqrstuvwxyz";

  private final int port;
  private final ConfigurableApplicationContext context;
  private final Process process;

  private StatsApp(int port, ConfigurableApplicationContext context, Process process) {
    this.port = port;
    this.context = context;
    this.process = process;
  }

  /** The arguments of one instance of application {@code appId} with its own state directory. */
  static List<String> args(String appId, Path stateDir, int port) {
    List<String> a = new ArrayList<>();
    a.add("--server.port=" + port);
    a.add("--management.server.port=0"); // actuator's own port: random, so instances never clash
    a.add(
        "--spring.kafka.bootstrap-servers=" + System.getProperty("spring.kafka.bootstrap-servers"));
    a.add("--freshet.kafka.registry-url=" + System.getProperty("freshet.registry.url"));
    a.add("--freshet.kafka.auto-register=true");
    a.add("--freshet.stats.application-id=" + appId);
    a.add("--freshet.stats.state-dir=" + stateDir);
    a.add("--freshet.stats.advertised-host=localhost:" + port);
    a.add("--freshet.kafka.partitions=" + Topics.PARTITIONS);
    a.add("--freshet.stats.standby-replicas=0");
    a.add("--freshet.security.admin-key=" + ADMIN_KEY);
    a.add("--freshet.security.key-topic-poll=200ms");
    return a;
  }

  public static StatsApp start(String appId, Path stateDir, String... extra) {
    int port = freePort();
    List<String> a = args(appId, stateDir, port);
    a.addAll(List.of(extra));
    var context =
        new SpringApplicationBuilder(StatsAggregatorApplication.class)
            .run(a.toArray(String[]::new));
    return new StatsApp(port, context, null);
  }

  /**
   * The same application in a child JVM (this test's classpath), killable without a clean close.
   */
  public static StatsApp startChild(String appId, Path stateDir, Path log) throws IOException {
    int port = freePort();
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(StatsAggregatorApplication.class.getName());
    cmd.addAll(args(appId, stateDir, port));
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new StatsApp(port, null, p);
  }

  public int port() {
    return port;
  }

  public String url(String path) {
    return "http://localhost:" + port + path;
  }

  /** GET {@code path} with the bootstrap admin key; status and body. */
  public HttpResponse<String> get(String path) {
    return getAs(path, "Bearer " + ADMIN_KEY);
  }

  /** GET {@code path} with {@code authorization} as the Authorization header (none when null). */
  public HttpResponse<String> getAs(String path, String authorization) {
    try {
      var request = HttpRequest.newBuilder(URI.create(url(path))).GET();
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("GET " + path + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** GET {@code path} on this in-JVM instance's management port (metrics, health details). */
  public HttpResponse<String> getManagement(String path) {
    String management = context.getEnvironment().getProperty("local.management.port");
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://localhost:" + management + path)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("GET " + path + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Whether this in-JVM instance's Streams client is RUNNING. */
  public boolean running() {
    return context.getBean(StatsStreams.class).state() == KafkaStreams.State.RUNNING;
  }

  /** Kills the child JVM at once (SIGKILL): no clean close, no commit, no checkpoint. */
  public void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  @Override
  public void close() {
    if (context != null) {
      context.close();
    }
    if (process != null && process.isAlive()) {
      process.destroyForcibly();
    }
  }

  static int freePort() {
    try (var s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
