package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.registry.SchemaRegistrar;
import io.freshet.stack.FreePorts;
import io.freshet.stack.PlainAvroDecoder;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWeb;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.Reconciliation;
import io.freshet.stack.launcher.Infrastructure;
import io.freshet.stack.launcher.JvmOptions;
import io.freshet.stack.launcher.KafkaCluster;
import io.freshet.stack.launcher.Services;
import io.freshet.stack.launcher.StackSettings;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole pipeline as an operator runs it, for one test class: a standalone KRaft broker process,
 * PostgreSQL, the registry, the four services each its own process from its exec jar (so a kill is
 * a real kill), and the demo web in the test JVM (so its ground truth is read directly). Sources
 * are created through the scheduler's API and fetched once before {@link #start} returns.
 * Everything lives under {@code target/it-stack-<pid>-<name>/}, deleted on close but for the
 * processes' logs, kept in {@code target/it-logs/}.
 */
final class StackFixture implements AutoCloseable {

  static final String TENANT = "demo";
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final HttpClient HTTP = HttpClient.newHttpClient();

  final StackSettings settings;
  final Infrastructure infra;
  final Services services;
  final DemoWeb web;
  final String token;

  /** Scheduler source id → demo source id. */
  final Map<String, String> demoIdBySourceId;

  private StackFixture(
      StackSettings settings,
      Infrastructure infra,
      Services services,
      DemoWeb web,
      String token,
      Map<String, String> demoIdBySourceId) {
    this.settings = settings;
    this.infra = infra;
    this.services = services;
    this.web = web;
    this.token = token;
    this.demoIdBySourceId = demoIdBySourceId;
  }

  /**
   * Starts everything with {@code sources} well-behaved demo sources at 1440× (a trace day per wall
   * minute), registers them and waits for the first fetch of each.
   */
  static StackFixture start(String name, int sources) throws Exception {
    return start(name, sources, DemoWebSettings.defaults().withMisbehaving(false));
  }

  /** As {@link #start(String, int)} with the demo web's settings (port and count are set here). */
  static StackFixture start(String name, int sources, DemoWebSettings webSettings)
      throws Exception {
    return start(name, sources, webSettings, 1);
  }

  /**
   * As {@link #start(String, int, DemoWebSettings)} on {@code kafkaNodes} Kafka nodes: 1 is the
   * launcher's single broker; more is a {@link KafkaCluster} of combined KRaft nodes (the first on
   * the settings' Kafka ports) with the services' topics replicated 3 times, {@code
   * min.insync.replicas} 2, and every node in their bootstrap list.
   */
  static StackFixture start(String name, int sources, DemoWebSettings webSettings, int kafkaNodes)
      throws Exception {
    return start(name, sources, webSettings, kafkaNodes, List.of(), Map.of());
  }

  /**
   * As {@link #start(String, int, DemoWebSettings, int)} with variables for every service on top of
   * the fixture's (e.g. the scheduler's cadence clock on the demo web's).
   */
  static StackFixture start(
      String name,
      int sources,
      DemoWebSettings webSettings,
      int kafkaNodes,
      Map<String, String> serviceEnv)
      throws Exception {
    return start(name, sources, webSettings, kafkaNodes, List.of(), serviceEnv);
  }

  /**
   * As {@link #start(String, int, DemoWebSettings, int)}, running {@code setupSql} on database
   * {@code freshet} (as postgres) once the infrastructure is up, and giving every service {@code
   * serviceEnv} over the defaults (e.g. a database role of the test's own, with a password that can
   * be looked for in the logs).
   */
  static StackFixture start(
      String name,
      int sources,
      DemoWebSettings webSettings,
      int kafkaNodes,
      List<String> setupSql,
      Map<String, String> serviceEnv)
      throws Exception {
    return start(name, sources, webSettings, kafkaNodes, setupSql, serviceEnv, web -> {});
  }

  /**
   * As {@link #start(String, int, DemoWebSettings, int, List, Map)}, handing the demo web to {@code
   * beforeImport} once it runs and before any source is registered (so before any fetch, any
   * subscription to its hub): e.g. to set the hub's test hooks.
   */
  static StackFixture start(
      String name,
      int sources,
      DemoWebSettings webSettings,
      int kafkaNodes,
      List<String> setupSql,
      Map<String, String> serviceEnv,
      java.util.function.Consumer<DemoWeb> beforeImport)
      throws Exception {
    Path projectDir = Path.of("..").toAbsolutePath().normalize();
    Path home =
        Files.createDirectories(
            Path.of("target/it-stack-" + ProcessHandle.current().pid() + "-" + name)
                .toAbsolutePath());
    StackSettings settings =
        StackSettings.onPorts(projectDir, home, FreePorts::next, sources, 1440);
    String java = ProcessHandle.current().info().command().orElse("java");
    // One copy of PostgreSQL's binaries for every stack of this JVM, kept when a stack's home is
    // deleted: zonky reuses the first copy it unpacked, and a stack still running would lose it.
    Infrastructure infra =
        new Infrastructure(settings, java)
            .withPostgresBinaries(Path.of("target/postgres-binaries").toAbsolutePath());
    if (kafkaNodes > 1) {
      List<KafkaCluster.NodePorts> nodes = new ArrayList<>();
      nodes.add(new KafkaCluster.NodePorts(1, settings.kafkaPort(), settings.controllerPort()));
      for (int id = 2; id <= kafkaNodes; id++) {
        nodes.add(new KafkaCluster.NodePorts(id, FreePorts.next(), FreePorts.next()));
      }
      infra.withKafkaCluster(nodes);
    }
    Services services = null;
    DemoWeb web = null;
    try {
      infra.start();
      new SchemaRegistrar(settings.registryCcompatUrl()).registerAll();
      if (!setupSql.isEmpty()) {
        try (Connection c =
                DriverManager.getConnection(settings.jdbcUrl("freshet"), "postgres", "postgres");
            var st = c.createStatement()) {
          for (String sql : setupSql) {
            st.execute(sql);
          }
        }
      }
      // C1 only, as before the launcher's default became C2 for four services: a test's services
      // live a minute or two, mostly start-up, where C2's compiles only compete for the two cores.
      services =
          new Services(settings, java)
              .withJvmOptions(JvmOptions.C1_ONLY)
              .withManagementPorts(p -> FreePorts.next());
      // Every source's first fetch at once (these tests wait for them), not spread over the
      // scheduler's import-spread as a bulk import in production is; and due times exactly as the
      // cadence rules give them (CadenceEndToEndIT checks them to the millisecond) — the jitter on
      // top is ServerRulesTest's, OutcomesIT's and WellBehavedClientTest's subject.
      services.withEnv(
          Map.of(
              "FRESHET_SCHEDULER_WEB_IMPORT_SPREAD", "0s",
              "FRESHET_SCHEDULER_WEB_INTERVAL_JITTER", "0",
              "FRESHET_SCHEDULER_WEB_BACKOFF_JITTER", "0"));
      if (infra.kafkaCluster() != null) {
        services.withEnv(infra.kafkaCluster().serviceEnv());
      }
      services.withEnv(serviceEnv);
      assertThat(services.start()).as("services not built").isEmpty();
      web =
          DemoWeb.start(
              webSettings.withPort(settings.demoWebPort()).withSources(sources), Clock.systemUTC());
      beforeImport.accept(web);
      StackFixture f =
          new StackFixture(settings, infra, services, web, services.apiToken(), new HashMap<>());
      f.post("/tenants", "application/json", "{\"id\":\"" + TENANT + "\",\"tier\":\"pro\"}");
      f.post(
          "/sources/import/ndjson?tenant_id=" + TENANT,
          "application/x-ndjson",
          web.sourcesNdjson());
      f.demoIdBySourceId.putAll(f.sourceIds());
      assertThat(f.demoIdBySourceId).hasSize(sources);
      f.awaitEveryOutcomeAfter(Instant.EPOCH, sources); // the first fetch of every source
      return f;
    } catch (Exception | AssertionError e) {
      close(web, services, infra, settings);
      throw e;
    }
  }

  @Override
  public void close() {
    close(web, services, infra, settings);
  }

  private static void close(
      DemoWeb web, Services services, Infrastructure infra, StackSettings settings) {
    if (web != null) {
      web.close();
    }
    if (services != null) {
      services.close();
    }
    infra.close();
    keepLogs(settings);
    deleteRecursively(settings.home()); // PostgreSQL data and Kafka logs: ~150 MB a run
  }

  /** Every process's log, kept in {@code target/it-logs/<stack>/} for a failed run's diagnosis. */
  private static void keepLogs(StackSettings settings) {
    Path to = Path.of("target/it-logs").resolve(settings.home().getFileName());
    try (var logs = Files.list(settings.logs())) {
      Files.createDirectories(to);
      for (Path log : logs.toList()) {
        Files.copy(log, to.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      System.err.println("could not keep the logs of " + settings.home() + ": " + e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("could not delete " + dir + ": " + e.getMessage());
    }
  }

  /** Sources whose items stay listed (feeds, calendars, APIs): scheduler id → demo id. */
  Map<String, String> itemSources() {
    Map<String, String> out = new HashMap<>();
    demoIdBySourceId.forEach(
        (id, demoId) -> {
          if (web.catalog().get(demoId).kind().itemPerEvent()) {
            out.put(id, demoId);
          }
        });
    return out;
  }

  /** Every source fetched now; returns the instant before the requests. */
  Instant fetchNowAll() throws Exception {
    return fetchNow(demoIdBySourceId.keySet());
  }

  /** {@code POST /sources/{id}/fetch} for each; returns the instant before the requests. */
  Instant fetchNow(Set<String> ids) throws Exception {
    Instant roundStart = Instant.now();
    for (String id : ids) {
      post("/sources/" + id + "/fetch", "application/json", "");
    }
    return roundStart;
  }

  /** The number of versions the demo web served, over every source. */
  long servedTotal() {
    return web.truth().servedCountBySource().values().stream().mapToLong(Integer::longValue).sum();
  }

  /** The reconciliation once the store has caught up with what was served (or after 60 s). */
  Reconciliation awaitReconciled() {
    return awaitReconciled(Duration.ofSeconds(60));
  }

  Reconciliation awaitReconciled(Duration atMost) {
    var last = new AtomicReference<Reconciliation>();
    try {
      Awaitility.await()
          .atMost(atMost)
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () -> {
                last.set(
                    Reconciliation.of(web.truth().servedCountBySource(), storedVersionsByDemoId()));
                return last.get().exact();
              });
    } catch (ConditionTimeoutException e) {
      // reported by the caller's assertion with the line
    }
    return last.get();
  }

  /** Waits until {@code n} sources have an outcome applied after {@code after}. */
  void awaitEveryOutcomeAfter(Instant after, int n) {
    awaitEveryOutcomeAfter(after, n, Duration.ofSeconds(120));
  }

  void awaitEveryOutcomeAfter(Instant after, int n, Duration atMost) {
    Awaitility.await()
        .atMost(atMost)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(() -> outcomesAfter(after) >= n);
  }

  /** How many sources have an outcome applied at or after {@code after}. */
  long outcomesAfter(Instant after) throws SQLException {
    return count("SELECT count(*) FROM scheduler.sources WHERE last_outcome_at >= ?", after);
  }

  long count(String sql, Instant after) throws SQLException {
    try (Connection c = connect();
        var st = c.prepareStatement(sql)) {
      st.setObject(1, java.sql.Timestamp.from(after));
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Stored versions (rows of the content store) per demo source id. */
  Map<String, Integer> storedVersionsByDemoId() throws SQLException {
    Map<String, Integer> out = new HashMap<>();
    try (Connection c = connect();
        var st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT source_id, count(*) FROM content.platform_content GROUP BY source_id")) {
      while (rs.next()) {
        out.put(
            demoIdBySourceId.getOrDefault(rs.getString(1), "unknown:" + rs.getString(1)),
            rs.getInt(2));
      }
    }
    return out;
  }

  /**
   * What a subscriber in any language does: raw bytes, magic byte 0, the 4-byte schema id looked up
   * in the registry's Confluent-compatible API, Avro binary decoded with that schema. Returns the
   * distinct {@code item_id|content_hash} seen per demo source id.
   */
  Map<String, Set<String>> plainAvroConsumerVersions() {
    Properties p = new Properties();
    p.put("bootstrap.servers", settings.bootstrapServers());
    p.put("key.deserializer", ByteArrayDeserializer.class.getName());
    p.put("value.deserializer", ByteArrayDeserializer.class.getName());
    p.put("isolation.level", "read_committed");
    var decoder = new PlainAvroDecoder(settings.registryCcompatUrl());
    Map<String, Set<String>> out = new HashMap<>();
    try (var consumer = new KafkaConsumer<byte[], byte[]>(p)) {
      List<TopicPartition> parts =
          consumer.partitionsFor("freshet.content.fetched.v1").stream()
              .map(i -> new TopicPartition(i.topic(), i.partition()))
              .toList();
      consumer.assign(parts);
      consumer.seekToBeginning(parts);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      Instant deadline = Instant.now().plusSeconds(60);
      while (parts.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
          && Instant.now().isBefore(deadline)) {
        for (ConsumerRecord<byte[], byte[]> rec : consumer.poll(Duration.ofMillis(500))) {
          assertThat(rec.value()[0]).as("Confluent magic byte").isEqualTo((byte) 0);
          GenericRecord value = decoder.decode(rec.value());
          String sourceId = value.get("source_id").toString();
          out.computeIfAbsent(
                  demoIdBySourceId.getOrDefault(sourceId, sourceId), k -> new HashSet<>())
              .add(value.get("item_id") + "|" + value.get("content_hash"));
        }
      }
    }
    return out;
  }

  /** Scheduler source id → demo source id (by URL). */
  private Map<String, String> sourceIds() throws Exception {
    Map<String, String> demoIdByUrl = new HashMap<>();
    for (DemoSource s : web.catalog().sources()) {
      demoIdByUrl.put(web.url(s), s.id());
    }
    JsonNode list = JSON.readTree(get("/sources?tenant_id=" + TENANT + "&size=500"));
    Map<String, String> out = new HashMap<>();
    for (JsonNode item : list.get("items")) {
      out.put(item.get("id").asString(), demoIdByUrl.get(item.get("url").asString()));
    }
    return out;
  }

  /** A GET of the scheduler's API that must answer 200. */
  String get(String path) throws Exception {
    var r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(settings.schedulerUrl() + path))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return r.body();
  }

  /** A POST to the scheduler's API that must answer 2xx. */
  String post(String path, String type, String body) throws Exception {
    var r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(settings.schedulerUrl() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode() / 100).as(path + ": " + r.statusCode() + " " + r.body()).isEqualTo(2);
    return r.body();
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(settings.jdbcUrl("freshet"), "postgres", "postgres");
  }
}
