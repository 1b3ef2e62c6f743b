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
 * The five services, each its own process from its {@code -exec.jar}, configured by environment
 * variables; a service whose module is not built here is reported and skipped.
 */
public final class Services implements AutoCloseable {

  /** One service: its module, port and the variables it reads beyond the common ones. */
  record Service(String module, int port, Map<String, String> env) {}

  private final StackSettings s;
  private final String java;
  // Written by the starting thread, read by a shutdown hook.
  private final List<ManagedProcess> running = new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * Instances beyond the first, by process name ({@code <module>-<n>}): see {@link #startInstance}.
   */
  private final Map<String, Service> instances = new HashMap<>();

  private final Map<String, String> extraEnv = new HashMap<>();
  private final Map<String, Map<String, String>> moduleEnv = new HashMap<>();

  /** The address every service's ports listen on ({@link #withBindAddress}). */
  private String bindAddress = LOOPBACK;

  static final String LOOPBACK = "127.0.0.1";

  /** A service's public port → its management port (metrics, Prometheus, health details). */
  private final Map<Integer, Integer> managementPorts =
      new java.util.concurrent.ConcurrentHashMap<>();

  private java.util.function.IntUnaryOperator managementPortOf = Services::defaultManagementPort;

  /**
   * The services' JVM options ({@link JvmOptions#service} unless {@link #withJvmOptions}); one
   * module's {@code FRESHET_<MODULE>_JVM_OPTIONS}, in the launcher's environment or the module's
   * own variables ({@link #withEnv(String, Map)}), replaces them for that module.
   */
  private List<String> jvmOptions; // null: each module's default

  private Map<String, String> launcherEnv = System.getenv();

  /** Class-data sharing for the services ({@link SharedArchives}; {@code FRESHET_CDS}). */
  private boolean sharedArchives = SharedArchives.enabled(System.getenv(SharedArchives.VARIABLE));

  /** The processes recording a class-data archive, until they stop. */
  private final Map<ManagedProcess, SharedArchives.Launch> recordings =
      new java.util.concurrent.ConcurrentHashMap<>();

  public Services(StackSettings settings, String java) {
    this.s = settings;
    this.java = java;
  }

  /**
   * The services' database, each connection named after its service ({@code application_name} in
   * {@code pg_stat_activity}), so PostgreSQL's work can be told apart by service.
   */
  private String database(String module) {
    return s.jdbcUrl("freshet") + "?ApplicationName=" + module;
  }

  /** In start order: the sink and stats first so nothing the worker emits waits for them. */
  List<Service> services() throws IOException {
    return List.of(
        new Service(
            "content-sink",
            s.sinkPort(),
            Map.of(
                "DATABASE_URL",
                database("content-sink"),
                "FRESHET_SECURITY_ADMIN_KEY",
                apiToken())),
        new Service(
            "stats-aggregator",
            s.statsPort(),
            Map.of(
                "FRESHET_STATS_STATE_DIR",
                s.home().resolve("stats-state").toString(),
                "ADVERTISED_HOST",
                "127.0.0.1:" + s.statsPort(),
                "FRESHET_SECURITY_ADMIN_KEY",
                apiToken())),
        new Service(
            "push-receiver",
            s.pushPort(),
            Map.of(
                "DATABASE_URL",
                database("push-receiver"),
                // the demo hub (the demo web, on loopback) calls back here
                "FRESHET_PUSH_PUBLIC_BASE_URL",
                "http://127.0.0.1:" + s.pushPort(),
                "FRESHET_PUSH_SECRET_KEY",
                secret("push-secret-key"),
                "FRESHET_PUSH_ALLOW_PRIVATE_HUBS",
                "true",
                "FRESHET_PUSH_ROUND_INTERVAL",
                "2s")),
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
                "DATABASE_URL",
                database("scheduler-producer"),
                "FRESHET_SECURITY_ADMIN_KEY",
                apiToken(),
                "FRESHET_CREDENTIALS_KEY",
                secret("credentials-key"),
                // the live figures read the census gauges: re-count them at the display's pace
                "FRESHET_SCHEDULER_GAUGE_REFRESH",
                "2s",
                "FRESHET_SCHEDULER_CENSUS_REFRESH",
                "5s")));
  }

  /**
   * Variables given to every service started from now on, over the defaults (e.g. a Kafka cluster's
   * bootstrap list and replication: {@link KafkaCluster#serviceEnv()}).
   */
  public Services withEnv(Map<String, String> env) {
    extraEnv.putAll(env);
    return this;
  }

  /**
   * Variables given to one module's processes started from now on, over the defaults and {@link
   * #withEnv(Map)} (e.g. a benchmark's variation of one service's settings).
   */
  public Services withEnv(String module, Map<String, String> env) {
    moduleEnv.computeIfAbsent(module, m -> new HashMap<>()).putAll(env);
    return this;
  }

  /**
   * Sets one module's own variables to exactly {@code env} for processes started from now on (a
   * benchmark switching a service between two settings: {@link #stop} then {@link #restart}).
   */
  public Services replaceEnv(String module, Map<String, String> env) {
    moduleEnv.put(module, new HashMap<>(env));
    return this;
  }

  /**
   * Where the services listen ({@code FRESHET_BIND_ADDRESS}): {@code 127.0.0.1} by default, so
   * nothing of the local stack is reachable from another machine; {@code 0.0.0.0} (or {@code ::})
   * to listen on every interface — the public ports and the management ports alike.
   */
  public Services withBindAddress(String address) {
    bindAddress = bindAddress(address);
    return this;
  }

  /** {@code FRESHET_BIND_ADDRESS} checked: loopback (the default) or every interface. */
  public static String bindAddress(String address) {
    if (address == null || address.isBlank()) {
      return LOOPBACK;
    }
    String a = address.strip();
    return switch (a) {
      case "127.0.0.1", "localhost" -> LOOPBACK;
      case "0.0.0.0", "::" -> a;
      default ->
          throw new IllegalArgumentException(
              "FRESHET_BIND_ADDRESS must be 127.0.0.1 (the default: this machine only), 0.0.0.0"
                  + " or :: (every interface); got '"
                  + address
                  + "'");
    };
  }

  /**
   * How a service's management port follows from its public port, for services started from now on:
   * by default the public port + 1000 (scheduler 19080, sink 19082, stats 19083, worker 19084);
   * tests pick free ports.
   */
  public Services withManagementPorts(java.util.function.IntUnaryOperator fromPublicPort) {
    managementPortOf = fromPublicPort;
    return this;
  }

  /** The local stack's management port of the service whose public port is {@code port}. */
  public static int defaultManagementPort(int port) {
    return port + 1000;
  }

  /**
   * The management port of the running service whose public port is {@code port}: its {@code
   * /actuator/prometheus}, {@code /actuator/metrics} and health with details.
   */
  public int managementPort(int port) {
    Integer management = managementPorts.get(port);
    if (management == null) {
      throw new IllegalArgumentException("no service was started on port " + port);
    }
    return management;
  }

  /** JVM options for services started from now on, instead of the defaults (e.g. a benchmark's). */
  public Services withJvmOptions(List<String> options) {
    jvmOptions = List.copyOf(options);
    return this;
  }

  /**
   * The environment whose {@code FRESHET_<MODULE>_JVM_OPTIONS} this reads (the launcher's own by
   * default; tests give theirs).
   */
  Services withLauncherEnv(Map<String, String> env) {
    launcherEnv = Map.copyOf(env);
    return this;
  }

  /**
   * Whether services started from now on use class-data sharing ({@link SharedArchives}); by
   * default as {@code FRESHET_CDS} says (on unless it says off).
   */
  public Services withSharedArchives(boolean on) {
    sharedArchives = on;
    return this;
  }

  /**
   * The JVM options {@code module} starts with: its {@code FRESHET_<MODULE>_JVM_OPTIONS} from its
   * own variables, else from the launcher's environment, else {@link #withJvmOptions} or the
   * defaults.
   */
  List<String> jvmOptions(String module) {
    List<String> defaults = jvmOptions != null ? jvmOptions : JvmOptions.service(module);
    String variable = JvmOptions.variable(module);
    Map<String, String> own = moduleEnv.getOrDefault(module, Map.of());
    if (own.containsKey(variable)) {
      return JvmOptions.of(module, defaults, own);
    }
    if (extraEnv.containsKey(variable)) {
      return JvmOptions.of(module, defaults, extraEnv);
    }
    return JvmOptions.of(module, defaults, launcherEnv);
  }

  /** Starts every built service and waits for each one's readiness. */
  public List<String> start() throws IOException {
    List<String> skipped = new ArrayList<>();
    for (Service svc : services()) {
      if (execJar(svc.module()) == null) {
        skipped.add(svc.module());
      } else {
        startOne(svc);
      }
    }
    return skipped;
  }

  private ManagedProcess startOne(Service svc) throws IOException {
    return startOne(svc, svc.module());
  }

  /**
   * Starts one more instance of a running {@code module} — a second scheduler or fetch-worker, as
   * an operator scales them out — as process {@code <module>-<n>} (n = 2, 3, …) on {@code port}:
   * its own working directory {@code <home>/<module>-<n>/}, log {@code logs/<module>-<n>.log} and
   * pid file {@code run/<module>-<n>.pid}; a stats-aggregator instance also gets its own state
   * directory and advertised host. The instances share the first one's database, topics and
   * consumer groups. {@link #kill} and {@link #restart} take the returned name; {@link #close}
   * stops it too.
   */
  public String startInstance(String module, int port) throws IOException {
    Service first =
        services().stream()
            .filter(svc -> svc.module().equals(module))
            .findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no service " + module));
    if (execJar(module) == null) {
      throw new StackException(module + " is not built");
    }
    int n = 2;
    while (instances.containsKey(module + "-" + n)) {
      n++;
    }
    String name = module + "-" + n;
    Map<String, String> env = new HashMap<>(first.env());
    if (module.equals("stats-aggregator")) {
      env.put("FRESHET_STATS_STATE_DIR", s.home().resolve("stats-state-" + n).toString());
      env.put("ADVERTISED_HOST", "127.0.0.1:" + port);
    }
    Service svc = new Service(module, port, Map.copyOf(env));
    instances.put(name, svc);
    startOne(svc, name);
    return name;
  }

  private ManagedProcess startOne(Service svc, String name) throws IOException {
    Path jar = execJar(svc.module());
    Map<String, String> env = new HashMap<>(svc.env());
    env.put("PORT", Integer.toString(svc.port()));
    env.put(
        "MANAGEMENT_PORT",
        Integer.toString(
            managementPorts.computeIfAbsent(svc.port(), managementPortOf::applyAsInt)));
    env.put("SERVER_ADDRESS", bindAddress);
    env.put("MANAGEMENT_SERVER_ADDRESS", bindAddress);
    env.put("KAFKA_BOOTSTRAP_SERVERS", s.bootstrapServers());
    env.put("REGISTRY_URL", s.registryApiUrl());
    env.put("FRESHET_KAFKA_CREATE_TOPICS", "false"); // Infrastructure provisioned them
    env.put("DATABASE_USER", "postgres");
    env.put("DATABASE_PASSWORD", "postgres");
    // A killed instance's partitions move after 10 s instead of Kafka's 45 s default.
    env.put("SPRING_KAFKA_CONSUMER_PROPERTIES_SESSION_TIMEOUT_MS", "10000");
    if (svc.module().equals("fetch-worker")) {
      // Stable per instance, as a pod name is (ADR 0004): a restarted worker aborts the
      // transaction its killed predecessor left open at once, instead of read_committed readers
      // waiting out transaction.timeout.ms for it.
      env.put("FRESHET_TRANSACTION_ID_PREFIX", "freshet-" + name + "-");
    }
    env.putAll(extraEnv);
    env.putAll(moduleEnv.getOrDefault(svc.module(), Map.of()));
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(jvmOptions(svc.module()));
    env.remove(JvmOptions.variable(svc.module())); // the launcher's, not the service's
    SharedArchives.Launch launch =
        sharedArchives
            ? new SharedArchives(java).prepare(svc.module(), jar)
            : new SharedArchives.Launch(svc.module(), jar, List.of(), null);
    command.addAll(launch.options());
    command.addAll(List.of("-jar", launch.jar().toString()));
    ManagedProcess p = ManagedProcess.start(s, name, command, env, s.home().resolve(name));
    if (launch.recording() != null) {
      recordings.put(p, launch);
    }
    running.add(p); // before waiting: a stop during the wait must stop this one too
    p.awaitHttpOk(
        "http://127.0.0.1:" + svc.port() + "/actuator/health/readiness", Duration.ofSeconds(180));
    return p;
  }

  /** SIGKILL of one running service (a fault test's crash): no shutdown hook, no clean close. */
  public void kill(String module) {
    for (ManagedProcess p : running) {
      if (p.name().equals(module)) {
        p.kill();
        SharedArchives.Launch launch = recordings.remove(p);
        if (launch != null) {
          SharedArchives.discard(launch.recording()); // a killed JVM's recording is no archive
        }
      }
    }
  }

  /** Stops one running service cleanly (its shutdown hooks run), waiting up to {@code grace}. */
  public void stop(String module, Duration grace) {
    for (ManagedProcess p : running) {
      if (p.name().equals(module)) {
        p.stop(grace);
        keepArchive(p);
      }
    }
  }

  /** After {@code p} stopped cleanly: what it recorded becomes its module's class-data archive. */
  private void keepArchive(ManagedProcess p) {
    SharedArchives.Launch launch = recordings.remove(p);
    if (launch != null) {
      SharedArchives.promote(launch.module(), launch.recording());
    }
  }

  /** Starts {@code module} again (after {@link #kill}) and waits for its readiness. */
  public void restart(String module) throws IOException {
    Service instance = instances.get(module);
    if (instance != null) {
      running.removeIf(p -> p.name().equals(module) && !p.isAlive());
      startOne(instance, module);
      return;
    }
    for (Service svc : services()) {
      if (svc.module().equals(module)) {
        running.removeIf(p -> p.name().equals(module) && !p.isAlive());
        startOne(svc);
        return;
      }
    }
    throw new IllegalArgumentException("no service " + module);
  }

  public List<ManagedProcess> running() {
    return running;
  }

  /**
   * The bootstrap admin key of the scheduler and the sink ({@code FRESHET_SECURITY_ADMIN_KEY}),
   * generated once and kept in the data dir; {@code ./freshet keys create} makes tenant keys with
   * it.
   */
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
      keepArchive(running.get(i));
    }
  }
}
