package io.freshet.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A real Apicurio Registry 3 (the {@code all.tar.gz} Quarkus app from Maven Central, unpacked by
 * test-support's build) running as a child process on a random port with in-memory storage. It
 * serves Apicurio's own API and the Confluent-compatible one.
 */
public final class RegistryFixture {

  /** System property naming the unpacked registry; set by the parent POM for every module. */
  public static final String HOME_PROPERTY = "freshet.registry.home";

  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

  private final Process process;
  private final int port;

  private RegistryFixture(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static RegistryFixture start(Path workDir) {
    Path runner = locateRunner();
    int port = freePort();
    int managementPort = freePort();
    try {
      Files.createDirectories(workDir);
      Path logFile = workDir.resolve("registry-" + port + ".log");
      String java = ProcessHandle.current().info().command().orElse("java");
      List<String> command = new ArrayList<>();
      command.add(java);
      command.addAll(
          List.of(
              "-Xmx384m",
              "-XX:TieredStopAtLevel=1",
              "-XX:+UseSerialGC",
              "-Dquarkus.http.host=127.0.0.1",
              "-Dquarkus.http.port=" + port,
              "-Dquarkus.management.host=127.0.0.1",
              "-Dquarkus.management.port=" + managementPort,
              "-Dquarkus.log.level=WARN",
              "-Dquarkus.http.access-log.enabled=false",
              "-Dapicurio.logging.audit.enabled=false",
              "-jar",
              runner.toString()));
      Process process =
          new ProcessBuilder(command)
              .directory(runner.getParent().toFile())
              .redirectErrorStream(true)
              .redirectOutput(logFile.toFile())
              .start();
      Runtime.getRuntime()
          .addShutdownHook(new Thread(process::destroyForcibly, "registry-fixture-stop"));
      var fixture = new RegistryFixture(process, port);
      fixture.awaitReady(logFile);
      return fixture;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the schema registry", e);
    }
  }

  /** Base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String baseUrl() {
    return "http://127.0.0.1:" + port;
  }

  /** Apicurio's native v2 API, the one Apicurio's 2.x serdes speak. */
  public String apiUrl() {
    return baseUrl() + "/apis/registry/v2";
  }

  /** The Confluent-compatible API any Confluent-format client can use. */
  public String ccompatUrl() {
    return baseUrl() + "/apis/ccompat/v7";
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  private void awaitReady(Path logFile) {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    var probe = HttpRequest.newBuilder(URI.create(ccompatUrl() + "/subjects")).GET().build();
    Instant deadline = Instant.now().plus(STARTUP_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "schema registry exited with " + process.exitValue() + "; log: " + tail(logFile));
      }
      try {
        if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      onSpinWaitFor(Duration.ofMillis(100));
    }
    process.destroyForcibly();
    throw new IllegalStateException(
        "schema registry not ready after " + STARTUP_TIMEOUT + "; log: " + tail(logFile));
  }

  private static void onSpinWaitFor(Duration d) {
    try {
      Thread.sleep(d);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Path locateRunner() {
    String home = System.getProperty(HOME_PROPERTY);
    List<Path> candidates = new ArrayList<>();
    if (home != null && !home.isBlank()) {
      candidates.add(Path.of(home));
    }
    // Fallback for runs outside Maven (an IDE): walk up to the reactor root.
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      candidates.add(dir.resolve("test-support/target/apicurio-registry"));
    }
    return candidates.stream()
        .map(p -> p.resolve("quarkus-run.jar"))
        .filter(Files::isRegularFile)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "Apicurio Registry is not unpacked (looked in "
                        + candidates.getFirst()
                        + "); run ./mvnw -pl test-support generate-resources, or set -D"
                        + HOME_PROPERTY));
  }

  private static int freePort() {
    try (var socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String tail(Path logFile) {
    try {
      List<String> lines = Files.readAllLines(logFile);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
