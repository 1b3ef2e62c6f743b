package io.freshet.worker.kafka;

import io.freshet.testsupport.Infrastructure;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A fetch-worker started from its exec jar as a separate process (so that a test can really kill
 * it), on the test's broker and registry, loopback allowed, no politeness delay, and a short
 * session timeout so that the group notices its death within seconds.
 */
final class WorkerProcess {

  private WorkerProcess() {}

  /**
   * @param jvmOptions options before {@code -jar}, e.g. a heap size
   * @param args settings after the test's own ({@code --key=value})
   * @param log file under {@code target} that gets the process's output
   */
  static Process start(String group, List<String> jvmOptions, List<String> args, String log)
      throws IOException {
    Path jar;
    try (var files = Files.list(Path.of("target"))) {
      jar =
          files
              .filter(f -> f.getFileName().toString().endsWith("-exec.jar"))
              .findFirst()
              .orElseThrow(
                  () -> new IllegalStateException("run through Maven: needs the exec jar"));
    }
    List<String> command = new ArrayList<>();
    command.add(ProcessHandle.current().info().command().orElse("java"));
    command.addAll(jvmOptions);
    command.addAll(
        List.of(
            "-jar",
            jar.toString(),
            "--server.port=0",
            "--spring.kafka.bootstrap-servers=" + Infrastructure.kafka().bootstrapServers(),
            "--spring.kafka.consumer.group-id=" + group,
            "--spring.kafka.consumer.properties.session.timeout.ms=6000",
            "--spring.kafka.consumer.properties.heartbeat.interval.ms=1000",
            "--freshet.kafka.registry-url=" + System.getProperty("freshet.registry.url"),
            "--freshet.kafka.auto-register=true",
            "--freshet.kafka.partitions=4",
            "--freshet.http.allow-loopback=true",
            "--freshet.politeness.min-delay=0s"));
    command.addAll(args);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(Path.of("target", log).toFile())
        .start();
  }
}
