package io.freshet.stack.bench;

import io.freshet.schemas.registry.SchemaRegistrar;
import io.freshet.stack.FreePorts;
import io.freshet.stack.demoweb.Catalog;
import io.freshet.stack.demoweb.DemoSource;
import io.freshet.stack.demoweb.DemoWeb;
import io.freshet.stack.demoweb.DemoWebSettings;
import io.freshet.stack.demoweb.GroundTruth;
import io.freshet.stack.demoweb.Reconciliation;
import io.freshet.stack.launcher.Infrastructure;
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
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One local stack for a benchmark, as {@code ./freshet up} starts it (the launcher's standalone
 * broker, PostgreSQL, registry and the five services, each its own process, with the launcher's JVM
 * options), every port — the management ports too — a free random one; the demo web (well-behaved
 * sources) and a twin of it for bare reads run in this JVM.
 */
final class BenchStack implements AutoCloseable {

  static final String TENANT = "demo";

  final StackSettings settings;
  final Infrastructure infra;
  final Services services;
  final DemoWeb web;
  final DemoWeb twin;
  final String token;
  private final HttpClient api = HttpClient.newHttpClient();

  /** Scheduler source id → demo source, once imported. */
  final Map<String, DemoSource> demoBySourceId = new HashMap<>();

  /**
   * @param webScale the demo web's trace seconds per wall second
   * @param catalog the demo web's sources from its settings, e.g. {@link Catalog#fromBundledTraces}
   * @param serviceEnv variables over the launcher's, for every service
   * @param moduleEnv variables over those, by module
   * @param postgresConfig PostgreSQL server settings over the launcher's
   * @param jvmOptions every service's JVM options instead of the launcher's (empty: the launcher's)
   */
  BenchStack(
      int sources,
      int hosts,
      double webScale,
      java.util.function.Function<DemoWebSettings, Catalog> catalog,
      Map<String, String> serviceEnv,
      Map<String, Map<String, String>> moduleEnv,
      Map<String, String> postgresConfig,
      List<String> jvmOptions)
      throws Exception {
    Path projectDir = Path.of("..").toAbsolutePath().normalize();
    Path home =
        Files.createDirectories(
            Path.of("target/bench-stack-" + ProcessHandle.current().pid() + "-" + System.nanoTime())
                .toAbsolutePath());
    settings = StackSettings.onPorts(projectDir, home, FreePorts::next, sources, webScale);
    String java = ProcessHandle.current().info().command().orElse("java");
    infra = new Infrastructure(settings, java);
    postgresConfig.forEach(infra::withPostgresConfig);
    services = new Services(settings, java).withManagementPorts(p -> FreePorts.next());
    if (!jvmOptions.isEmpty()) {
      services.withJvmOptions(jvmOptions);
    }
    DemoWeb w = null;
    DemoWeb t = null;
    String tok = null;
    try {
      infra.start();
      new SchemaRegistrar(settings.registryCcompatUrl()).registerAll();
      services.withEnv(serviceEnv);
      moduleEnv.forEach(services::withEnv);
      List<String> skipped = services.start();
      if (!skipped.isEmpty()) {
        throw new IllegalStateException("services not built: " + skipped);
      }
      tok = services.apiToken();
      DemoWebSettings webSettings =
          new DemoWebSettings(
                  "0.0.0.0",
                  settings.demoWebPort(),
                  sources,
                  hosts,
                  20,
                  webScale,
                  DemoWebSettings.defaults().traceStart(),
                  Instant.now(),
                  false,
                  Duration.ofSeconds(2),
                  Duration.ofSeconds(2))
              .withMisbehaving(false);
      Catalog sourcesOfTheWeb = catalog.apply(webSettings);
      w = DemoWeb.start(webSettings, sourcesOfTheWeb, Clock.systemUTC());
      t = DemoWeb.start(webSettings.withPort(0), sourcesOfTheWeb, Clock.systemUTC());
    } catch (Exception e) {
      web = w;
      twin = t;
      token = tok;
      close();
      throw e;
    }
    web = w;
    twin = t;
    token = tok;
  }

  /**
   * Creates the tenant and imports every demo source with {@code config} merged into each line
   * (e.g. a cadence; empty: the lines as the demo web lists them), then maps the scheduler's ids to
   * the demo sources.
   */
  void importSources(ObjectNode config) throws Exception {
    post("/tenants", "application/json", "{\"id\":\"" + TENANT + "\",\"tier\":\"pro\"}");
    String lines = web.sourcesNdjson();
    post(
        "/sources/import/ndjson?tenant_id=" + TENANT,
        "application/x-ndjson",
        config.isEmpty() ? lines : withConfig(lines, config));
    Map<String, DemoSource> byUrl = new HashMap<>();
    for (DemoSource s : web.catalog().sources()) {
      byUrl.put(web.url(s), s);
    }
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT id::text, url FROM scheduler.sources")) {
      while (rs.next()) {
        demoBySourceId.put(rs.getString(1), byUrl.get(rs.getString(2)));
      }
    }
  }

  /** Every NDJSON line with {@code config} merged into its {@code config} object. */
  private static String withConfig(String ndjson, ObjectNode config) {
    StringBuilder out = new StringBuilder();
    for (String line : ndjson.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      ObjectNode node = (ObjectNode) PipelineBenchmark.JSON.readTree(line);
      JsonNode existing = node.get("config");
      ObjectNode merged = existing == null ? node.putObject("config") : (ObjectNode) existing;
      merged.setAll(config);
      out.append(PipelineBenchmark.JSON.writeValueAsString(node)).append('\n');
    }
    return out.toString();
  }

  /** A service module's public port; null for a process that is not one of the services. */
  Integer publicPort(String module) {
    return switch (module) {
      case "scheduler-producer" -> settings.schedulerPort();
      case "fetch-worker" -> settings.workerPort();
      case "content-sink" -> settings.sinkPort();
      case "stats-aggregator" -> settings.statsPort();
      case "push-receiver" -> settings.pushPort();
      default -> null;
    };
  }

  /** The demo web's ground truth against what the content store holds. */
  Reconciliation reconcile() throws SQLException {
    return Reconciliation.of(web.truth().servedCountBySource(), storedByDemoId());
  }

  /** The served versions the reconciliation leaves out, and why (empty when none). */
  String notCounted() {
    int beyond = web.truth().servedBeyondReach();
    return beyond == 0
        ? ""
        : "not counted: "
            + beyond
            + " calendar events listed only when more than "
            + GroundTruth.CALENDAR_REACH.toDays()
            + " days past (beyond the calendar connector's reach)";
  }

  /**
   * Where a reconciliation's lost versions are: served versions not stored, summed by the source's
   * kind, with the sources that lost the most (empty when nothing is lost).
   */
  String lostBreakdown() throws SQLException {
    Map<String, Integer> stored = storedByDemoId();
    Map<String, Long> byKind = new java.util.TreeMap<>();
    Map<String, Integer> bySource = new HashMap<>();
    web.truth()
        .servedCountBySource()
        .forEach(
            (id, served) -> {
              int lost = served - stored.getOrDefault(id, 0);
              if (lost > 0) {
                byKind.merge(web.catalog().get(id).kind().toString(), (long) lost, Long::sum);
                bySource.put(id, lost);
              }
            });
    if (byKind.isEmpty()) {
      return "";
    }
    List<String> top =
        bySource.entrySet().stream()
            .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
            .limit(8)
            .map(e -> e.getKey() + " " + e.getValue())
            .toList();
    return "lost by kind " + byKind + "; most: " + String.join(", ", top);
  }

  /** Stored versions per demo source id. */
  private Map<String, Integer> storedByDemoId() throws SQLException {
    Map<String, Integer> stored = new HashMap<>();
    try (Connection c = connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT source_id, count(*) FROM content.platform_content GROUP BY source_id")) {
      while (rs.next()) {
        DemoSource s = demoBySourceId.get(rs.getString(1));
        stored.put(s == null ? "unknown:" + rs.getString(1) : s.id(), rs.getInt(2));
      }
    }
    return stored;
  }

  /** The Prometheus text of a service's management port. */
  String prometheus(int publicPort) throws Exception {
    int port = services.managementPort(publicPort);
    return api.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  String post(String path, String type, String body) throws Exception {
    var r =
        api.send(
            HttpRequest.newBuilder(URI.create(settings.schedulerUrl() + path))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", type)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException(path + ": " + r.statusCode() + " " + r.body());
    }
    return r.body();
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(settings.jdbcUrl("freshet"), "postgres", "postgres");
  }

  @Override
  public void close() {
    if (twin != null) {
      twin.close();
    }
    if (web != null) {
      web.close();
    }
    services.close();
    infra.close();
    Path to = Path.of("target/bench-logs").resolve(settings.home().getFileName());
    try (var logs = Files.list(settings.logs())) {
      Files.createDirectories(to);
      for (Path log : logs.toList()) {
        Files.copy(log, to.resolve(log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      System.err.println("could not keep the logs of " + settings.home() + ": " + e);
    }
    try (var paths = Files.walk(settings.home())) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      System.err.println("could not delete " + settings.home() + ": " + e.getMessage());
    }
  }
}
