package io.freshet.stack.launcher;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Every setting of the local stack, from {@code FRESHET_*} environment variables with defaults.
 * Ports are fixed (not random) so that a second {@code up} finds the same endpoints and data.
 *
 * @param projectDir the reactor root (where the services' jars are built)
 * @param home where every part keeps its data ({@code FRESHET_HOME}, default {@code ./.freshet})
 * @param kafkaPort broker listener ({@code FRESHET_KAFKA_PORT}, 19092)
 * @param controllerPort KRaft controller listener ({@code FRESHET_CONTROLLER_PORT}, 19093)
 * @param postgresPort PostgreSQL ({@code FRESHET_POSTGRES_PORT}, 15432)
 * @param registryPort schema registry ({@code FRESHET_REGISTRY_PORT}, 18081)
 * @param demoWebPort demo web ({@code FRESHET_DEMO_WEB_PORT}, 18090)
 * @param schedulerPort scheduler-producer API ({@code FRESHET_SCHEDULER_PORT}, 18080)
 * @param sinkPort content-sink ({@code FRESHET_SINK_PORT}, 18082)
 * @param statsPort stats-aggregator ({@code FRESHET_STATS_PORT}, 18083)
 * @param workerPort fetch-worker ({@code FRESHET_WORKER_PORT}, 18084)
 * @param pushPort push-receiver, the demo hub's callbacks ({@code FRESHET_PUSH_PORT}, 18085)
 * @param demoSources demo sources registered ({@code FRESHET_DEMO_SOURCES}, 1000)
 * @param demoScale trace seconds per wall second ({@code FRESHET_DEMO_SCALE}, 240: four trace hours
 *     per wall minute; the scheduler's cadence runs on the same clock)
 * @param minFreeDiskMb refuse to start below this much free disk ({@code FRESHET_MIN_FREE_DISK_MB},
 *     2048)
 */
public record StackSettings(
    Path projectDir,
    Path home,
    int kafkaPort,
    int controllerPort,
    int postgresPort,
    int registryPort,
    int demoWebPort,
    int schedulerPort,
    int sinkPort,
    int statsPort,
    int workerPort,
    int pushPort,
    int demoSources,
    double demoScale,
    long minFreeDiskMb) {

  public static final String TENANT = "demo";

  public static StackSettings fromEnvironment(Map<String, String> env, Path projectDir) {
    Path home =
        Path.of(env.getOrDefault("FRESHET_HOME", projectDir.resolve(".freshet").toString()));
    return new StackSettings(
        projectDir.toAbsolutePath().normalize(),
        home.toAbsolutePath().normalize(),
        port(env, "FRESHET_KAFKA_PORT", 19092),
        port(env, "FRESHET_CONTROLLER_PORT", 19093),
        port(env, "FRESHET_POSTGRES_PORT", 15432),
        port(env, "FRESHET_REGISTRY_PORT", 18081),
        port(env, "FRESHET_DEMO_WEB_PORT", 18090),
        port(env, "FRESHET_SCHEDULER_PORT", 18080),
        port(env, "FRESHET_SINK_PORT", 18082),
        port(env, "FRESHET_STATS_PORT", 18083),
        port(env, "FRESHET_WORKER_PORT", 18084),
        port(env, "FRESHET_PUSH_PORT", 18085),
        Integer.parseInt(env.getOrDefault("FRESHET_DEMO_SOURCES", "1000")),
        Double.parseDouble(env.getOrDefault("FRESHET_DEMO_SCALE", "1440")),
        Long.parseLong(env.getOrDefault("FRESHET_MIN_FREE_DISK_MB", "2048")));
  }

  /**
   * A stack whose ten ports are each taken from {@code port}, in record order, with no floor on
   * free disk space: tests' and benchmarks' stacks, which must never take {@code ./freshet up}'s
   * ports.
   */
  public static StackSettings onPorts(
      Path projectDir, Path home, IntSupplier port, int demoSources, double demoScale) {
    return new StackSettings(
        projectDir,
        home,
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        port.getAsInt(),
        demoSources,
        demoScale,
        0);
  }

  private static int port(Map<String, String> env, String name, int fallback) {
    String v = env.get(name);
    if (v == null || v.isBlank()) {
      return fallback;
    }
    try {
      int p = Integer.parseInt(v.trim());
      if (p < 1 || p > 65_535) {
        throw new NumberFormatException();
      }
      return p;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be a port 1-65535, got '" + v + "'");
    }
  }

  public String bootstrapServers() {
    return "127.0.0.1:" + kafkaPort;
  }

  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + postgresPort + "/" + database;
  }

  public String registryApiUrl() {
    return "http://127.0.0.1:" + registryPort + "/apis/registry/v2";
  }

  public String registryCcompatUrl() {
    return "http://127.0.0.1:" + registryPort + "/apis/ccompat/v7";
  }

  public String schedulerUrl() {
    return "http://127.0.0.1:" + schedulerPort;
  }

  /** A service's Prometheus scrape, on its management port, given the service's public port. */
  public String metricsUrl(int servicePort) {
    return "http://127.0.0.1:"
        + Services.defaultManagementPort(servicePort)
        + "/actuator/prometheus";
  }

  public String demoWebUrl() {
    return "http://127.0.0.1:" + demoWebPort;
  }

  public Path logs() {
    return home.resolve("logs");
  }
}
