package io.freshet.stack.launcher;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The four services, each its own process from its {@code -exec.jar}, configured by environment
 * variables; a service whose module is not built here is reported and skipped.
 */
public final class Services implements AutoCloseable {

  /** One service: its module, port and the variables it reads beyond the common ones. */
  record Service(String module, int port, Map<String, String> env) {}

  private final StackSettings s;
  private final String java;
  private final List<ManagedProcess> running = new ArrayList<>();
  private final Map<String, String> extraEnv = new HashMap<>();

  public Services(StackSettings settings, String java) {
    this.s = settings;
    this.java = java;
  }

  /** In start order: the sink and stats first so nothing the worker emits waits for them. */
  List<Service> services() throws IOException {
    String db = s.jdbcUrl("freshet");
    return List.of(
        new Service(
            "content-sink",
            s.sinkPort(),
            Map.of("DATABASE_URL", db, "FRESHET_API_TOKEN", apiToken())),
        new Service(
            "stats-aggregator",
            s.statsPort(),
            Map.of(
                "FRESHET_STATS_STATE_DIR",
                s.home().resolve("stats-state").toString(),
                "ADVERTISED_HOST",
                "127.0.0.1:" + s.statsPort())),
        new Service(
            "fetch-worker",
            s.workerPort(),
            Map.of(
                "FRESHET_HTTP_ALLOW_LOOPBACK",
                "true",
                "FRESHET_CREDENTIALS_KEY",
                secret("credentials-key"))),
        new Service(
            "scheduler-producer",
            s.schedulerPort(),
            Map.of(
                "DATABASE_URL", db,
                "FRESHET_API_TOKEN", apiToken(),
                "FRESHET_CREDENTIALS_KEY", secret("credentials-key"))));
  }

  /**
   * Variables given to every service started from now on, over the defaults (e.g. a Kafka cluster's
   * bootstrap list and replication: {@link KafkaCluster#serviceEnv()}).
   */
  public Services withEnv(Map<String, String> env) {
    extraEnv.putAll(env);
    return this;
  }

  /** Starts every built service and waits for each one's readiness. */
  public List<String> start() throws IOException {
    List<String> skipped = new ArrayList<>();
    for (Service svc : services()) {
      if (execJar(svc.module()) == null) {
        skipped.add(svc.module());
      } else {
        running.add(startOne(svc));
      }
    }
    return skipped;
  }

  private ManagedProcess startOne(Service svc) throws IOException {
    Path jar = execJar(svc.module());
    Map<String, String> env = new HashMap<>(svc.env());
    env.put("PORT", Integer.toString(svc.port()));
    env.put("KAFKA_BOOTSTRAP_SERVERS", s.bootstrapServers());
    env.put("REGISTRY_URL", s.registryApiUrl());
    env.put("DATABASE_USER", "postgres");
    env.put("DATABASE_PASSWORD", "postgres");
    env.putAll(extraEnv);
    List<String> command =
        List.of(
            java,
            "-Xmx384m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-jar",
            jar.toString());
    ManagedProcess p =
        ManagedProcess.start(s, svc.module(), command, env, s.home().resolve(svc.module()));
    p.awaitHttpOk(
        "http://127.0.0.1:" + svc.port() + "/actuator/health/readiness", Duration.ofSeconds(180));
    return p;
  }

  /** SIGKILL of one running service (a fault test's crash): no shutdown hook, no clean close. */
  public void kill(String module) {
    for (ManagedProcess p : running) {
      if (p.name().equals(module)) {
        p.kill();
      }
    }
  }

  /** Starts {@code module} again (after {@link #kill}) and waits for its readiness. */
  public void restart(String module) throws IOException {
    for (Service svc : services()) {
      if (svc.module().equals(module)) {
        running.removeIf(p -> p.name().equals(module) && !p.isAlive());
        running.add(startOne(svc));
        return;
      }
    }
    throw new IllegalArgumentException("no service " + module);
  }

  public List<ManagedProcess> running() {
    return running;
  }

  /** The token the scheduler's API wants for writes, generated once and kept in the data dir. */
  public String apiToken() throws IOException {
    return secret("api-token");
  }

  private String secret(String name) throws IOException {
    Path file = s.home().resolve("secrets").resolve(name);
    if (Files.exists(file)) {
      return Files.readString(file).trim();
    }
    Files.createDirectories(file.getParent());
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    String value = Base64.getEncoder().encodeToString(bytes);
    Files.writeString(file, value);
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException ignored) {
      // not a POSIX file system
    }
    return value;
  }

  Path execJar(String module) throws IOException {
    Path target = s.projectDir().resolve(module).resolve("target");
    if (!Files.isDirectory(target)) {
      return null;
    }
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, module + "-*-exec.jar")) {
      for (Path jar : jars) {
        return jar;
      }
    }
    return null;
  }

  /** Stops the services in reverse start order: the scheduler first, the sink last. */
  @Override
  public void close() {
    for (int i = running.size() - 1; i >= 0; i--) {
      running.get(i).stop(Duration.ofSeconds(30));
    }
  }
}
