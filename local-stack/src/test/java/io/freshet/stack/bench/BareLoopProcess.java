package io.freshet.stack.bench;

import io.freshet.stack.launcher.JvmOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@link SteadyBareLoop} in a JVM of its own, kept between windows (so it stays warm, as the
 * services do), started with this JVM's Java and class path and the fetch-worker's JVM options
 * ({@link JvmOptions#service}), which do the same work in the pipeline. Its standard error goes to
 * this JVM's.
 */
final class BareLoopProcess implements AutoCloseable {

  /** The part name its CPU and memory are reported under. */
  static final String PART = "bare loop";

  private final Process process;
  private final PrintWriter commands;
  private final BufferedReader answers;
  private final Path targetsFile;
  private final List<String> jvmOptions;

  BareLoopProcess(
      List<SteadyBareLoop.Target> targets, int concurrency, int clients, boolean conditional)
      throws IOException {
    targetsFile = Files.createTempFile("freshet-bare-targets", ".tsv");
    Files.write(targetsFile, targets.stream().map(SteadyBareLoop.Target::line).toList());
    jvmOptions = JvmOptions.service("fetch-worker");
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(SteadyBareLoop.class.getName());
    cmd.add(targetsFile.toString());
    cmd.add(Integer.toString(concurrency));
    cmd.add(Integer.toString(clients));
    cmd.add(Boolean.toString(conditional));
    process = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    answers =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  long pid() {
    return process.pid();
  }

  List<String> jvmOptions() {
    return jvmOptions;
  }

  /** Runs the loop for {@code length} and waits for its counts. */
  SteadyBareLoop.Result run(Duration length) throws IOException {
    commands.println("run " + length.toMillis());
    String line = answers.readLine();
    if (line == null) {
      throw new IOException(
          "the bare loop's JVM closed its output (alive: " + process.isAlive() + ")");
    }
    return SteadyBareLoop.Result.parse(line);
  }

  @Override
  public void close() throws IOException {
    commands.close();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } finally {
      Files.deleteIfExists(targetsFile);
    }
  }
}
