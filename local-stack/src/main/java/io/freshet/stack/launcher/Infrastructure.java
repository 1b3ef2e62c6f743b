package io.freshet.stack.launcher;

import io.freshet.schemas.serde.RegistrySettings;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.TopicProvisioner;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Kafka (a standalone KRaft broker process from {@code kafka_2.13}), PostgreSQL (zonky embedded
 * binaries) and Apicurio Registry (SQL storage in that PostgreSQL, so schema ids survive a
 * restart), all with data under {@link StackSettings#home()}.
 */
public final class Infrastructure implements AutoCloseable {

  /** Databases created on first start: the services' and the registry's. */
  static final List<String> DATABASES = List.of("freshet", "registry");

  private final StackSettings s;
  private final String javaCmd;
  private ManagedProcess kafka;
  private EmbeddedPostgres postgres;
  private ManagedProcess registry;
  private KafkaCluster kafkaCluster;

  private Path postgresBinaries;
  private final Map<String, String> postgresConfig = new java.util.LinkedHashMap<>();

  public Infrastructure(StackSettings settings, String java) {
    this.s = settings;
    this.javaCmd = java;
  }

  /**
   * A PostgreSQL server setting for starts from now on (e.g. a benchmark's {@code
   * shared_preload_libraries=pg_stat_statements}), over the launcher's.
   */
  public Infrastructure withPostgresConfig(String key, String value) {
    postgresConfig.put(key, value);
    return this;
  }

  /**
   * Starts the three, PostgreSQL and Kafka in parallel, then the registry (it needs PostgreSQL).
   */
  public void start() throws IOException {
    Thread pg = Thread.ofPlatform().name("start-postgres").unstarted(this::startPostgresUnchecked);
    RuntimeException[] pgFailure = new RuntimeException[1];
    pg.setUncaughtExceptionHandler(
        (t, e) -> pgFailure[0] = e instanceof RuntimeException r ? r : new RuntimeException(e));
    pg.start();
    if (kafkaCluster != null) {
      kafkaCluster.start(brokerClasspath());
    } else {
      startKafka();
    }
    try {
      pg.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while starting PostgreSQL");
    }
    if (pgFailure[0] != null) {
      throw pgFailure[0];
    }
    provisionTopics();
    startRegistry();
  }

  /**
   * The topic provisioner as a step of the launcher, before any service starts: the services run
   * with {@code FRESHET_KAFKA_CREATE_TOPICS=false}, so no service's start order decides a partition
   * count.
   */
  private void provisionTopics() {
    var settings =
        new TopicProvisioner.Settings(
            FreshetTopics.DEFAULT_PARTITIONS,
            kafkaCluster == null ? 1 : kafkaCluster.replicationFactor(),
            kafkaCluster == null ? 0 : kafkaCluster.minInsyncReplicas());
    var props = new java.util.Properties();
    props.put(
        org.apache.kafka.clients.admin.AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        kafkaCluster == null ? s.bootstrapServers() : kafkaCluster.bootstrapServers());
    try (var admin = org.apache.kafka.clients.admin.Admin.create(props)) {
      var wanted =
          TopicProvisioner.freshetTopics(
              FreshetTopics.create(RegistrySettings.of(s.registryApiUrl(), false)), settings);
      var report = TopicProvisioner.provision(admin, wanted, Duration.ofSeconds(60));
      if (!report.warnings().isEmpty()) {
        report.warnings().forEach(w -> System.out.println("freshet: warning: " + w));
      }
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new StackException("cannot create Freshet's topics: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while creating Freshet's topics");
    }
  }

  private void startPostgresUnchecked() {
    try {
      Path binaries =
          Files.createDirectories(
              postgresBinaries != null ? postgresBinaries : s.home().resolve("postgres-binaries"));
      Path data = s.home().resolve("postgres");
      EmbeddedPostgres.Builder builder =
          EmbeddedPostgres.builder()
              .setOverrideWorkingDirectory(binaries.toFile())
              .setDataDirectory(data)
              .setCleanDataDirectory(false)
              .setPort(s.postgresPort())
              .setServerConfig("max_connections", "200")
              .setPGStartupWait(Duration.ofSeconds(60));
      postgresConfig.forEach(builder::setServerConfig);
      postgres = builder.start();
      try (Connection c =
          DriverManager.getConnection(s.jdbcUrl("postgres"), "postgres", "postgres")) {
        for (String db : DATABASES) {
          boolean exists;
          try (var st = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            st.setString(1, db);
            exists = st.executeQuery().next();
          }
          if (!exists) {
            try (var st = c.createStatement()) {
              st.execute("CREATE DATABASE " + db);
            }
          }
        }
      }
    } catch (IOException | SQLException e) {
      throw new StackException("PostgreSQL did not start: " + e.getMessage());
    }
  }

  private void startKafka() throws IOException {
    Path dir = Files.createDirectories(s.home().resolve("kafka"));
    Path logs = dir.resolve("data");
    Path config = dir.resolve("server.properties");
    Files.writeString(
        config,
        String.join(
                "\n",
                "# Written by ./freshet up on every start; edit FRESHET_* variables instead.",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.bootstrap.servers=127.0.0.1:" + s.controllerPort(),
                "listeners=PLAINTEXT://127.0.0.1:"
                    + s.kafkaPort()
                    + ",CONTROLLER://127.0.0.1:"
                    + s.controllerPort(),
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + s.kafkaPort(),
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "inter.broker.listener.name=PLAINTEXT",
                "log.dirs=" + logs,
                "num.partitions=12",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                "log.retention.hours=168",
                "")
            + "\n");
    String classpath = brokerClasspath();
    if (!Files.exists(logs.resolve("meta.properties"))) {
      String clusterId = clusterId(dir);
      var format =
          new ProcessBuilder(
                  javaCmd,
                  "-cp",
                  classpath,
                  "kafka.tools.StorageTool",
                  "format",
                  "-t",
                  clusterId,
                  "-c",
                  config.toString(),
                  "--standalone",
                  "--ignore-formatted")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile("kafka-format").toFile()))
              .start();
      try {
        if (format.waitFor() != 0) {
          throw new StackException(
              "formatting Kafka's storage failed; see " + logFile("kafka-format"));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StackException("interrupted while formatting Kafka's storage");
      }
    }
    List<String> command = new ArrayList<>(List.of(javaCmd));
    command.addAll(JvmOptions.of("kafka", JvmOptions.KAFKA, System.getenv()));
    command.addAll(
        List.of(
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-cp",
            classpath,
            "kafka.Kafka",
            config.toString()));
    kafka = ManagedProcess.start(s, "kafka", command, Map.of(), dir);
    kafka.awaitPort(s.kafkaPort(), Duration.ofSeconds(90));
  }

  private Path logFile(String name) throws IOException {
    return Files.createDirectories(s.logs()).resolve(name + ".log");
  }

  /**
   * The broker's classpath: kafka_2.13's runtime as the build resolved it (provided scope), plus
   * the jars it shares with the launcher's own dependencies (kafka-clients and its compression
   * libraries come in compile scope through {@code schemas}) and an SLF4J binding.
   */
  private String brokerClasspath() throws IOException {
    Path target = s.projectDir().resolve("local-stack/target");
    Path broker = target.resolve("kafka-broker.classpath");
    Path own = target.resolve("local-stack.classpath");
    if (!Files.exists(broker) || !Files.exists(own)) {
      throw new StackException(
          "local-stack is not built: run ./mvnw -q package -DskipTests -pl local-stack -am");
    }
    StringBuilder cp = new StringBuilder(Files.readString(broker).trim());
    for (String jar : Files.readString(own).trim().split(File.pathSeparator)) {
      String name = Path.of(jar).getFileName().toString();
      if (!cp.toString().contains("/" + name)) {
        cp.append(File.pathSeparator).append(jar);
      }
    }
    return cp.toString();
  }

  /**
   * A cluster id kept in the data dir, so a re-format after a lost meta.properties is the same
   * cluster.
   */
  static String clusterId(Path dir) throws IOException {
    Path file = dir.resolve("cluster.id");
    if (Files.exists(file)) {
      return Files.readString(file).trim();
    }
    // Kafka's own generator: never starts with '-', which StorageTool would take for an option
    // (a random URL-safe Base64 id does, one start in 64; CI failed on it).
    String id = org.apache.kafka.common.Uuid.randomUuid().toString();
    Files.writeString(file, id);
    return id;
  }

  private void startRegistry() throws IOException {
    Path runner = s.projectDir().resolve("local-stack/target/apicurio-registry/quarkus-run.jar");
    if (!Files.exists(runner)) {
      throw new StackException(
          "the schema registry is not unpacked: run ./mvnw -q package -DskipTests -pl local-stack -am");
    }
    List<String> command = new ArrayList<>(List.of(javaCmd));
    command.addAll(JvmOptions.of("registry", JvmOptions.REGISTRY, System.getenv()));
    command.addAll(
        List.of(
            "-Dquarkus.http.host=127.0.0.1",
            "-Dquarkus.http.port=" + s.registryPort(),
            // Its management interface is fixed on at build time (enabled=false is ignored) and
            // defaults to 0.0.0.0:9000, which a second registry on the machine cannot bind: a free
            // loopback port instead, as test-support's registry does.
            "-Dquarkus.management.host=127.0.0.1",
            "-Dquarkus.management.port=" + freeLoopbackPort(),
            "-Dquarkus.log.level=WARN",
            "-Dquarkus.http.access-log.enabled=false",
            "-Dapicurio.logging.audit.enabled=false",
            "-Dapicurio.storage.kind=sql",
            "-Dapicurio.storage.sql.kind=postgresql",
            "-Dapicurio.datasource.url=" + s.jdbcUrl("registry"),
            "-Dapicurio.datasource.username=postgres",
            "-Dapicurio.datasource.password=postgres",
            "-jar",
            runner.toString()));
    registry = ManagedProcess.start(s, "registry", command, Map.of(), runner.getParent());
    registry.awaitHttpOk(s.registryCcompatUrl() + "/subjects", Duration.ofSeconds(120));
  }

  private static int freeLoopbackPort() throws IOException {
    try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** Whether every part is running. */
  public boolean healthy() {
    return kafka != null
        && kafka.isAlive()
        && registry != null
        && registry.isAlive()
        && postgres != null;
  }

  public ManagedProcess kafka() {
    return kafka;
  }

  /**
   * Stops PostgreSQL as an operator's {@code pg_ctl stop -m fast} does (open connections are ended,
   * a checkpoint written) and keeps its data directory; {@link #startPostgres()} starts it again.
   * For fault tests: the services and the registry are left running and must ride it out.
   */
  public void stopPostgres() throws IOException {
    if (postgres != null) {
      EmbeddedPostgres stopping = postgres;
      postgres = null;
      stopping.close();
    }
  }

  /**
   * Starts PostgreSQL again after {@link #stopPostgres()}, on the same data directory and port, and
   * waits until it accepts connections. Does nothing while it is running.
   */
  public void startPostgres() {
    if (postgres == null) {
      startPostgresUnchecked();
    }
  }

  /** Whether PostgreSQL is running (not stopped by {@link #stopPostgres()}). */
  public boolean postgresRunning() {
    return postgres != null;
  }

  /**
   * Runs a cluster of combined KRaft nodes instead of the single broker (the three-broker fault
   * test); call before {@link #start}. Give the first node the settings' Kafka ports, so that
   * {@link StackSettings#bootstrapServers()} reaches the cluster too; the services need {@link
   * KafkaCluster#serviceEnv()}.
   */
  public Infrastructure withKafkaCluster(List<KafkaCluster.NodePorts> nodes) {
    kafkaCluster = new KafkaCluster(s, javaCmd, nodes);
    return this;
  }

  /**
   * Where PostgreSQL's binaries are unpacked, instead of under the stack's home; call before {@link
   * #start}. For several stacks in one JVM (the e2e tests run two at once): zonky unpacks its
   * binaries once per JVM and every later stack runs the first stack's copy, so that copy must
   * outlive the stack whose home it was in.
   */
  public Infrastructure withPostgresBinaries(Path dir) {
    postgresBinaries = dir;
    return this;
  }

  /** The cluster of {@link #withKafkaCluster}, or null with the single broker. */
  public KafkaCluster kafkaCluster() {
    return kafkaCluster;
  }

  /**
   * SIGKILL of the single broker (a fault test's crash): no controlled shutdown, nothing flushed
   * but what the OS already had.
   */
  public void killKafka() {
    kafka.kill();
  }

  /**
   * Starts the single broker again on the same data dir and ports (after {@link #killKafka}), and
   * waits for its listener; clients reconnect by themselves.
   */
  public void restartKafka() throws IOException {
    if (kafka.isAlive()) {
      throw new IllegalStateException("the broker is running");
    }
    startKafka();
  }

  /** Stops the registry, Kafka, then PostgreSQL. */
  @Override
  public void close() {
    if (registry != null) {
      registry.stop(Duration.ofSeconds(15));
    }
    if (kafka != null) {
      kafka.stop(Duration.ofSeconds(30));
    }
    if (kafkaCluster != null) {
      kafkaCluster.close();
    }
    if (postgres != null) {
      try {
        postgres.close();
      } catch (IOException e) {
        System.err.println("PostgreSQL did not stop cleanly: " + e.getMessage());
      }
    }
  }
}
