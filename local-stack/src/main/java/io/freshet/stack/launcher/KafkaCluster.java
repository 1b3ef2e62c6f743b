package io.freshet.stack.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Node;

/**
 * A Kafka cluster of combined broker and controller KRaft nodes, each its own process from {@code
 * kafka_2.13} like the single broker of {@link Infrastructure}, with every node a voter of a static
 * quorum: the durable layout operators run (replication factor 3, {@code min.insync.replicas} 2,
 * Kafka's internal topics likewise), for the fault tests that kill one broker. Data under {@code
 * <home>/kafka-cluster/node-<id>/}, so a node restarted after a kill finds its log again.
 */
public final class KafkaCluster implements AutoCloseable {

  /**
   * One node.
   *
   * @param id its {@code node.id} (also its voter id)
   * @param port its client listener
   * @param controllerPort its controller listener
   */
  public record NodePorts(int id, int port, int controllerPort) {}

  private final StackSettings s;
  private final String javaCmd;
  private final List<NodePorts> nodes;
  private final Map<Integer, ManagedProcess> processes = new LinkedHashMap<>();
  private String classpath;

  public KafkaCluster(StackSettings settings, String java, List<NodePorts> nodes) {
    if (nodes.size() < 3) {
      throw new IllegalArgumentException(
          "a cluster that survives the loss of a node needs 3 nodes or more, got " + nodes.size());
    }
    this.s = settings;
    this.javaCmd = java;
    this.nodes = List.copyOf(nodes);
  }

  public List<NodePorts> nodes() {
    return nodes;
  }

  /** Replication of every topic: 3 (more copies only cost on a local machine). */
  public short replicationFactor() {
    return 3;
  }

  /** {@code min.insync.replicas}: an acknowledged write is on two nodes, one may be down. */
  public int minInsyncReplicas() {
    return 2;
  }

  /** Every node's client listener, for clients' {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return nodes.stream().map(n -> "127.0.0.1:" + n.port()).collect(Collectors.joining(","));
  }

  /**
   * The variables that point a service at this cluster: every node in the bootstrap list, and
   * replication and {@code min.insync.replicas} of the topics the services create (Kafka Streams'
   * internal topics included).
   */
  public Map<String, String> serviceEnv() {
    String rf = Short.toString(replicationFactor());
    String minIsr = Integer.toString(minInsyncReplicas());
    return Map.of(
        "KAFKA_BOOTSTRAP_SERVERS", bootstrapServers(),
        "FRESHET_KAFKA_REPLICATION_FACTOR", rf,
        "FRESHET_KAFKA_MIN_INSYNC_REPLICAS", minIsr);
  }

  /**
   * Writes each node's configuration, formats the storage of the nodes not yet formatted (one
   * cluster id), starts every node and waits until all of them are registered, unfenced brokers.
   */
  void start(String brokerClasspath) throws IOException {
    this.classpath = brokerClasspath;
    Path dir = Files.createDirectories(s.home().resolve("kafka-cluster"));
    String clusterId = Infrastructure.clusterId(dir);
    List<Process> formats = new ArrayList<>();
    for (NodePorts n : nodes) {
      Path config = writeConfig(n);
      if (!Files.exists(dataDir(n).resolve("meta.properties"))) {
        formats.add(
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
                    "--ignore-formatted")
                .redirectErrorStream(true)
                .redirectOutput(
                    ProcessBuilder.Redirect.appendTo(logFile("kafka-" + n.id() + "-format")))
                .start());
      }
    }
    for (Process format : formats) {
      try {
        if (format.waitFor() != 0) {
          throw new StackException("formatting a Kafka node's storage failed; see " + s.logs());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StackException("interrupted while formatting Kafka's storage");
      }
    }
    for (NodePorts n : nodes) {
      processes.put(n.id(), startProcess(n));
    }
    for (NodePorts n : nodes) {
      processes.get(n.id()).awaitPort(n.port(), Duration.ofSeconds(120));
    }
    awaitBrokers(
        nodes.stream().map(NodePorts::id).collect(Collectors.toSet()), Duration.ofMinutes(2));
  }

  /** SIGKILL of one node (broker and controller at once): no controlled shutdown, no flush. */
  public void kill(int nodeId) {
    process(nodeId).kill();
  }

  /**
   * Starts a killed node again on its data dir and ports, and waits until it is a registered,
   * unfenced broker again (its replicas then catch up on their own).
   */
  public void restart(int nodeId) throws IOException {
    if (process(nodeId).isAlive()) {
      throw new IllegalStateException("node " + nodeId + " is running");
    }
    NodePorts n = nodes.stream().filter(x -> x.id() == nodeId).findFirst().orElseThrow();
    processes.put(nodeId, startProcess(n));
    processes.get(nodeId).awaitPort(n.port(), Duration.ofSeconds(120));
    awaitBrokers(Set.of(nodeId), Duration.ofMinutes(2));
  }

  public boolean isAlive(int nodeId) {
    return process(nodeId).isAlive();
  }

  /** The id of the quorum's leader, the active controller. */
  public int activeController() {
    try (Admin admin = admin()) {
      return admin.describeMetadataQuorum().quorumInfo().get(30, TimeUnit.SECONDS).leaderId();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while asking for the active controller");
    } catch (ExecutionException | TimeoutException e) {
      throw new StackException("no active controller: " + e);
    }
  }

  /** An admin client of this cluster (the caller closes it). */
  public Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
    return Admin.create(p);
  }

  private ManagedProcess process(int nodeId) {
    ManagedProcess p = processes.get(nodeId);
    if (p == null) {
      throw new IllegalArgumentException("no node " + nodeId);
    }
    return p;
  }

  private ManagedProcess startProcess(NodePorts n) throws IOException {
    List<String> command =
        List.of(
            javaCmd,
            "-Xmx384m",
            "-XX:+UseSerialGC",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-cp",
            classpath,
            "kafka.Kafka",
            config(n).toString());
    return ManagedProcess.start(s, "kafka-" + n.id(), command, Map.of(), nodeDir(n));
  }

  private void awaitBrokers(Set<Integer> ids, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    String last = "no answer";
    try (Admin admin = admin()) {
      while (Instant.now().isBefore(deadline)) {
        for (int id : ids) {
          if (!process(id).isAlive()) {
            throw new StackException(
                "Kafka node " + id + " exited; see " + s.logs().resolve("kafka-" + id + ".log"));
          }
        }
        try {
          Set<Integer> live =
              admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).stream()
                  .map(Node::id)
                  .collect(Collectors.toSet());
          if (live.containsAll(ids)) {
            return;
          }
          last = "brokers " + live;
        } catch (ExecutionException | TimeoutException e) {
          last = e.toString();
        }
        Thread.sleep(500);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StackException("interrupted while waiting for Kafka nodes " + ids);
    }
    throw new StackException(
        "Kafka nodes " + ids + " not registered after " + timeout.toSeconds() + " s: " + last);
  }

  private Path nodeDir(NodePorts n) {
    return s.home().resolve("kafka-cluster").resolve("node-" + n.id());
  }

  private Path dataDir(NodePorts n) {
    return nodeDir(n).resolve("data");
  }

  private Path config(NodePorts n) {
    return nodeDir(n).resolve("server.properties");
  }

  private Path writeConfig(NodePorts n) throws IOException {
    Files.createDirectories(nodeDir(n));
    String voters =
        nodes.stream()
            .map(v -> v.id() + "@127.0.0.1:" + v.controllerPort())
            .collect(Collectors.joining(","));
    String rf = Short.toString(replicationFactor());
    String minIsr = Integer.toString(minInsyncReplicas());
    Files.writeString(
        config(n),
        String.join(
                "\n",
                "# Written by the launcher on every start of this node.",
                "process.roles=broker,controller",
                "node.id=" + n.id(),
                "controller.quorum.voters=" + voters,
                "listeners=PLAINTEXT://127.0.0.1:"
                    + n.port()
                    + ",CONTROLLER://127.0.0.1:"
                    + n.controllerPort(),
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + n.port(),
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "inter.broker.listener.name=PLAINTEXT",
                "log.dirs=" + dataDir(n),
                "num.partitions=12",
                "default.replication.factor=" + rf,
                // the brokers' default too, for topics created without their own setting
                "min.insync.replicas=" + minIsr,
                "unclean.leader.election.enable=false",
                "offsets.topic.replication.factor=" + rf,
                "offsets.topic.num.partitions=12",
                "transaction.state.log.replication.factor=" + rf,
                "transaction.state.log.min.isr=" + minIsr,
                "transaction.state.log.num.partitions=12",
                "share.coordinator.state.topic.replication.factor=" + rf,
                "share.coordinator.state.topic.min.isr=" + minIsr,
                "group.initial.rebalance.delay.ms=0",
                "auto.create.topics.enable=false",
                "log.retention.hours=168",
                "")
            + "\n");
    return config(n);
  }

  private java.io.File logFile(String name) throws IOException {
    return Files.createDirectories(s.logs()).resolve(name + ".log").toFile();
  }

  /** Stops every node at once (one by one, the last ones would wait for a lost quorum). */
  @Override
  public void close() {
    List<Thread> stops = new ArrayList<>();
    for (ManagedProcess p : processes.values()) {
      stops.add(Thread.ofPlatform().start(() -> p.stop(Duration.ofSeconds(20))));
    }
    for (Thread t : stops) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
