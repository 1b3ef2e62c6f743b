package io.freshet.stack.launcher;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process of the launcher: its own log file under {@code logs/}, a pid file under {@code
 * run/} (so {@code ./freshet status} and {@code down} find it), stopped with SIGTERM and, after a
 * grace period, SIGKILL.
 */
public final class ManagedProcess {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Process process;
  private final Path log;
  private final Path pidFile;

  private ManagedProcess(String name, Process process, Path log, Path pidFile) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.pidFile = pidFile;
  }

  public static ManagedProcess start(
      StackSettings s, String name, List<String> command, Map<String, String> env, Path workDir)
      throws IOException {
    Files.createDirectories(s.logs());
    Files.createDirectories(s.home().resolve("run"));
    Files.createDirectories(workDir);
    Path log = s.logs().resolve(name + ".log");
    ProcessBuilder pb =
        new ProcessBuilder(ownSession(command))
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().putAll(env);
    Process p = pb.start();
    Path pidFile = s.home().resolve("run").resolve(name + ".pid");
    Files.writeString(pidFile, Long.toString(p.pid()));
    return new ManagedProcess(name, p, log, pidFile);
  }

  /**
   * The command under {@code setsid} where there is one: a child in its own session does not get
   * the terminal's Ctrl-C, so the launcher alone stops the parts, in order. {@code setsid} execs
   * the command in the same process, so the pid is the command's.
   */
  private static List<String> ownSession(List<String> command) {
    Path setsid = Path.of("/usr/bin/setsid");
    if (!Files.isExecutable(setsid)) {
      return command;
    }
    List<String> out = new java.util.ArrayList<>(command.size() + 1);
    out.add(setsid.toString());
    out.addAll(command);
    return out;
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  public Path log() {
    return log;
  }

  /** Waits until a TCP connection to {@code port} succeeds; fails if the process ends first. */
  public void awaitPort(int port, Duration timeout) {
    await(
        timeout,
        () -> {
          try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
          } catch (IOException e) {
            return false;
          }
        },
        "port " + port);
  }

  /** Waits until {@code url} answers 200. */
  public void awaitHttpOk(String url, Duration timeout) {
    await(timeout, () -> httpOk(url), url);
  }

  static boolean httpOk(String url) {
    try {
      var request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).build();
      return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private void await(Duration timeout, java.util.function.BooleanSupplier ready, String what) {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new StackException(
            name
                + " exited with "
                + process.exitValue()
                + " before "
                + what
                + " was ready; see "
                + log);
      }
      if (ready.getAsBoolean()) {
        return;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StackException("interrupted while waiting for " + name);
      }
    }
    throw new StackException(
        name + ": " + what + " not ready after " + timeout.toSeconds() + " s; see " + log);
  }

  /** SIGKILL, waiting until the process is gone. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGTERM, then SIGKILL after {@code grace}. */
  public void stop(Duration grace) {
    if (process.isAlive()) {
      process.destroy();
      try {
        if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
          process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    try {
      Files.deleteIfExists(pidFile);
    } catch (IOException ignored) {
      // a stale pid file is checked for liveness by its readers
    }
  }
}
