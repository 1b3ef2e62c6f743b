package io.freshet.stack.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.registry.SchemaRegistrar;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWeb;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.Reconciliation;
import io.freshet.stack.launcher.Infrastructure;
import io.freshet.stack.launcher.Services;
import io.freshet.stack.launcher.StackSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The whole pipeline as an operator runs it: a standalone KRaft broker process, PostgreSQL, the
 * registry, the four services each its own process from its exec jar, and the demo web (in this
 * JVM, so its ground truth is read directly). Sources are created through the scheduler's API;
 * after the first fetches and two rounds of fetch-now, every version the demo web served is stored
 * exactly once, and a plain Confluent-format Avro consumer of {@code freshet.content.fetched.v1}
 * has seen every stored version.
 */
class PipelineReconciliationIT {

  static final int SOURCES = 40;
  static final JsonMapper JSON = JsonMapper.builder().build();
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static StackSettings settings;
  static Infrastructure infra;
  static Services services;
  static DemoWeb web;
  static String token;
  static Map<String, String> demoIdBySourceId;

  @BeforeAll
  static void startEverything() throws Exception {
    Path projectDir = Path.of("..").toAbsolutePath().normalize();
    Path home =
        Files.createDirectories(
            Path.of("target/it-stack-" + ProcessHandle.current().pid()).toAbsolutePath());
    settings =
        new StackSettings(
            projectDir,
            home,
            freePort(),
            freePort(),
            freePort(),
            freePort(),
            freePort(),
            freePort(),
            freePort(),
            freePort(),
            freePort(),
            SOURCES,
            1440,
            0);
    String java = ProcessHandle.current().info().command().orElse("java");
    infra = new Infrastructure(settings, java);
    infra.start();
    new SchemaRegistrar(settings.registryCcompatUrl()).registerAll();
    services = new Services(settings, java);
    assertThat(services.start()).as("services not built").isEmpty();
    token = services.apiToken();
    web =
        DemoWeb.start(
            DemoWebSettings.defaults()
                .withPort(settings.demoWebPort())
                .withSources(SOURCES)
                .withMisbehaving(false),
            Clock.systemUTC());
    post("/tenants", "application/json", "{\"id\":\"demo\",\"tier\":\"pro\"}");
    post("/sources/import/ndjson?tenant_id=demo", "application/x-ndjson", web.sourcesNdjson());
    demoIdBySourceId = sourceIds();
    assertThat(demoIdBySourceId).hasSize(SOURCES);
    awaitEveryOutcomeAfter(Instant.EPOCH, SOURCES); // the first fetch of every source
  }

  @AfterAll
  static void stopEverything() {
    if (web != null) {
      web.close();
    }
    if (services != null) {
      services.close();
    }
    if (infra != null) {
      infra.close();
    }
    if (settings != null) {
      deleteRecursively(settings.home()); // PostgreSQL binaries and data: ~200 MB a run
    }
  }

  private static void deleteRecursively(Path dir) {
    try (var paths = Files.walk(dir)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("could not delete " + dir + ": " + e.getMessage());
    }
  }

  @Test
  void everyServedItemVersionIsStoredExactlyOnceAndSeenByAPlainAvroSubscriber() throws Exception {
    for (int round = 1; round <= 2; round++) {
      Thread.sleep(20_000); // 20 s = 20 trace days at 1440x: new items and page versions
      Instant roundStart = fetchNowAll();
      awaitEveryOutcomeAfter(roundStart, demoIdBySourceId.size());
    }
    long servedTotal =
        web.truth().servedCountBySource().values().stream().mapToLong(Integer::longValue).sum();
    assertThat(servedTotal)
        .as("new versions appeared and were fetched")
        .isGreaterThan(2L * SOURCES);
    Reconciliation r = awaitReconciled();
    System.out.println("e2e reconciliation: " + r.line() + " (" + web.truth().summary() + ")");
    assertThat(r.exact()).as(r.line()).isTrue();

    Map<String, Set<String>> onTopic = plainAvroConsumerVersions(demoIdBySourceId);
    Map<String, Integer> seen = new HashMap<>();
    onTopic.forEach((k, v) -> seen.put(k, v.size()));
    Reconciliation topic = Reconciliation.of(web.truth().servedCountBySource(), seen);
    System.out.println("e2e subscriber: " + topic.line());
    assertThat(topic.lost()).as(topic.line()).isZero();
  }

  @Test
  void aFetchWorkerKilledMidRoundAndRestartedLosesAndDuplicatesNothing() throws Exception {
    Thread.sleep(20_000);
    // Only sources whose items stay listed: a page version served to the killed worker can be
    // replaced before the restarted one refetches it, and no client could store that version.
    Map<String, String> itemSources = new HashMap<>();
    demoIdBySourceId.forEach(
        (id, demoId) -> {
          if (web.catalog().get(demoId).kind().itemPerEvent()) {
            itemSources.put(id, demoId);
          }
        });
    int requestsBefore = web.requests();
    Instant roundStart = fetchNow(itemSources.keySet());
    // The worker answers a batch in one transaction: kill it as soon as the demo web has answered
    // the round's first request, so the batch is mid-flight (fetched, nothing committed).
    Awaitility.await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(5))
        .until(() -> web.requests() > requestsBefore);
    services.kill("fetch-worker");
    int answeredAtKill = web.requests() - requestsBefore;
    long doneAtKill =
        count("SELECT count(*) FROM scheduler.sources WHERE last_outcome_at >= ?", roundStart);
    services.restart("fetch-worker");
    awaitEveryOutcomeAfter(roundStart, itemSources.size());
    Reconciliation r = awaitReconciled();
    System.out.println(
        "fault fetch-worker SIGKILL after "
            + answeredAtKill
            + " demo-web responses and "
            + doneAtKill
            + " of "
            + itemSources.size()
            + " outcomes, restarted: "
            + r.line());
    assertThat(r.exact()).as(r.line()).isTrue();
  }

  /** Every source fetched now; returns the instant before the requests. */
  private static Instant fetchNowAll() throws Exception {
    return fetchNow(demoIdBySourceId.keySet());
  }

  private static Instant fetchNow(Set<String> ids) throws Exception {
    Instant roundStart = Instant.now();
    for (String id : ids) {
      post("/sources/" + id + "/fetch", "application/json", "");
    }
    return roundStart;
  }

  /** The reconciliation once the store has caught up with what was served (or after 60 s). */
  private static Reconciliation awaitReconciled() {
    var last = new java.util.concurrent.atomic.AtomicReference<Reconciliation>();
    try {
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofSeconds(1))
          .until(
              () -> {
                last.set(
                    Reconciliation.of(
                        web.truth().servedCountBySource(),
                        storedVersionsByDemoId(demoIdBySourceId)));
                return last.get().exact();
              });
    } catch (org.awaitility.core.ConditionTimeoutException e) {
      // reported by the caller's assertion with the line
    }
    return last.get();
  }

  /** Waits until every source has an outcome applied after {@code after}. */
  private static void awaitEveryOutcomeAfter(Instant after, int n) {
    Awaitility.await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                count("SELECT count(*) FROM scheduler.sources WHERE last_outcome_at >= ?", after)
                    == n);
  }

  private static long count(String sql, Instant after) throws SQLException {
    try (Connection c = connect();
        var st = c.prepareStatement(sql)) {
      st.setObject(1, java.sql.Timestamp.from(after));
      try (ResultSet rs = st.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private static Map<String, Integer> storedVersionsByDemoId(Map<String, String> demoIdBySourceId)
      throws SQLException {
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
   * in the registry's Confluent-compatible API, Avro binary decoded with that schema.
   */
  private static Map<String, Set<String>> plainAvroConsumerVersions(
      Map<String, String> demoIdBySourceId) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", settings.bootstrapServers());
    p.put("key.deserializer", ByteArrayDeserializer.class.getName());
    p.put("value.deserializer", ByteArrayDeserializer.class.getName());
    Map<Integer, Schema> schemas = new HashMap<>();
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
          ByteBuffer buf = ByteBuffer.wrap(rec.value());
          assertThat(buf.get()).as("Confluent magic byte").isEqualTo((byte) 0);
          int id = buf.getInt();
          Schema schema = schemas.computeIfAbsent(id, PipelineReconciliationIT::schemaById);
          var decoder =
              DecoderFactory.get().binaryDecoder(rec.value(), 5, rec.value().length - 5, null);
          GenericRecord value = new GenericDatumReader<GenericRecord>(schema).read(null, decoder);
          String sourceId = value.get("source_id").toString();
          out.computeIfAbsent(
                  demoIdBySourceId.getOrDefault(sourceId, sourceId), k -> new HashSet<>())
              .add(value.get("item_id") + "|" + value.get("content_hash"));
        }
      }
    }
    return out;
  }

  private static Schema schemaById(int id) {
    try {
      var r =
          HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(settings.registryCcompatUrl() + "/schemas/ids/" + id))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return new Schema.Parser().parse(JSON.readTree(r.body()).get("schema").asString());
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Scheduler source id → demo source id (by URL). */
  private static Map<String, String> sourceIds() throws Exception {
    Map<String, String> demoIdByUrl = new HashMap<>();
    for (DemoSource s : web.catalog().sources()) {
      demoIdByUrl.put(web.url(s), s.id());
    }
    JsonNode list = JSON.readTree(get("/sources?tenant_id=demo&size=500"));
    Map<String, String> out = new HashMap<>();
    for (JsonNode item : list.get("items")) {
      out.put(item.get("id").asString(), demoIdByUrl.get(item.get("url").asString()));
    }
    return out;
  }

  private static String get(String path) throws Exception {
    var r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(settings.schedulerUrl() + path))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    return r.body();
  }

  private static String post(String path, String type, String body) throws Exception {
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

  private static Connection connect() throws SQLException {
    return DriverManager.getConnection(settings.jdbcUrl("freshet"), "postgres", "postgres");
  }

  private static int freePort() throws IOException {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
