package io.freshet.stack.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The metrics catalogue of docs/operations.md, the alert rules and the Grafana dashboard against
 * the metrics the services really serve: Freshet's meters as the code registers them, named as
 * Micrometer names them for Prometheus; the libraries' metrics as a real run served them.
 */
class MonitoringTest {

  private static final Path ROOT = FreshetProject.root();
  private static final Pattern CATALOGUE_ROW =
      Pattern.compile("^\\|\\s*`([a-z][a-z0-9_]*)(?:\\{([a-z_,]*)})?`\\s*\\|");
  private static final List<String> SUFFIXES = List.of("_count", "_sum", "_max", "_bucket");

  private static List<ServiceMeters.Series> series;
  private static MetricCatalogue catalogue;

  @BeforeAll
  static void readTheCode() throws IOException {
    series = ServiceMeters.series(ServiceMeters.scan(ROOT, FreshetProject.METERED_SERVICES));
    Set<String> jobs = new TreeSet<>(FreshetProject.SERVICES);
    jobs.add("prometheus");
    catalogue =
        MetricCatalogue.of(series, Path.of("src/test/resources/deploy/observed-metrics.tsv"), jobs);
  }

  @Test
  void theCodeScanFindsEveryKindOfRegistration() {
    Map<String, ServiceMeters.Series> byName = new TreeMap<>();
    series.forEach(s -> byName.put(s.meter().name(), s));
    assertThat(byName.get("freshet.worker.fetches").labels())
        .containsExactly("connector", "status");
    assertThat(byName.get("freshet.worker.fetches").sampleNames())
        .containsExactly("freshet_worker_fetches_total");
    assertThat(byName.get("freshet.worker.fetch.duration").sampleNames())
        .contains("freshet_worker_fetch_duration_seconds_bucket");
    assertThat(byName.get("freshet.scheduler.oldest.overdue.seconds").sampleNames())
        .containsExactly("freshet_scheduler_oldest_overdue_seconds");
    assertThat(byName.get("freshet.sink.batch.latency").sampleNames())
        .containsExactlyInAnyOrder(
            "freshet_sink_batch_latency_seconds_count",
            "freshet_sink_batch_latency_seconds_sum",
            "freshet_sink_batch_latency_seconds_max");
    assertThat(byName.get("freshet.worker.http.retries").sampleNames())
        .containsExactly("freshet_worker_http_retries_total");
    assertThat(byName.get("freshet.scheduler.claim.phase").labels()).containsExactly("phase");
    assertThat(byName.keySet())
        .allMatch(n -> n.startsWith("freshet."))
        .contains("freshet.stats.store.sources", "freshet.dead.letters");
  }

  @Test
  void theCatalogueInOperationsMdListsExactlyTheMetersInTheCodeWithTheirLabels()
      throws IOException {
    Map<String, Set<String>> documented = catalogueRows();
    Map<String, Set<String>> inCode = new TreeMap<>();
    for (ServiceMeters.Series s : series) {
      inCode.merge(
          family(s),
          s.labels(),
          (a, b) -> {
            Set<String> union = new TreeSet<>(a);
            union.addAll(b);
            return union;
          });
    }
    Map<String, Set<String>> documentedFreshet = new TreeMap<>();
    documented.forEach(
        (k, v) -> {
          if (k.startsWith("freshet_")) {
            documentedFreshet.put(k, v);
          }
        });
    assertThat(documentedFreshet).isEqualTo(inCode);
  }

  @Test
  void theCataloguesOtherMetricsAreOnesARealRunServed() throws IOException {
    List<String> problems = new ArrayList<>();
    catalogueRows()
        .forEach(
            (name, labels) -> {
              if (name.startsWith("freshet_")) {
                return;
              }
              var e = catalogue.get(name);
              if (e == null) {
                problems.add(name + " was not served");
              } else if (!e.labels().containsAll(labels)) {
                problems.add(name + " has labels " + e.labels() + ", not all of " + labels);
              }
            });
    assertThat(problems).isEmpty();
  }

  @Test
  void everyAlertRuleIsCompleteAndSelectsMetricsTheServicesServe() throws IOException {
    List<Map<String, Object>> rules = rules(ROOT.resolve("deploy/prometheus/alerts.yml"));
    assertThat(rules).hasSizeGreaterThanOrEqualTo(10);
    Set<String> names = new TreeSet<>();
    List<String> problems = new ArrayList<>();
    for (Map<String, Object> rule : rules) {
      String alert = String.valueOf(rule.get("alert"));
      assertThat(names.add(alert)).as("alert names are unique: " + alert).isTrue();
      assertThat(ComposeFile.map(rule.get("labels"))).containsKey("severity");
      assertThat(ComposeFile.map(rule.get("annotations"))).containsKeys("summary", "description");
      problems.addAll(catalogue.problems(alert, String.valueOf(rule.get("expr"))));
    }
    assertThat(problems).isEmpty();
    assertThat(names)
        .as("the alerts operations.md asks for")
        .contains(
            "FreshetFetchRequestsLag",
            "FreshetContentLag",
            "FreshetScheduleSlipping",
            "FreshetFetchErrorRate",
            "FreshetDeadLetters",
            "FreshetStatsDeadLetters");
    String operations = Files.readString(ROOT.resolve("docs/operations.md"));
    assertThat(names).allMatch(operations::contains, "is described in docs/operations.md");
  }

  @Test
  void everyMetricOfTheAlertsAndTheDashboardIsInTheCatalogue() throws IOException {
    Set<String> documented = catalogueRows().keySet();
    List<String> expressions = new ArrayList<>();
    rules(ROOT.resolve("deploy/prometheus/alerts.yml"))
        .forEach(r -> expressions.add(String.valueOf(r.get("expr"))));
    dashboardTargets().values().forEach(expressions::addAll);
    Set<String> missing = new TreeSet<>();
    for (String expr : expressions) {
      for (String metric : PromQl.selectors(expr).keySet()) {
        if (!metric.equals("up")
            && !documented.contains(stripSuffix(metric))
            && !documented.contains(metric)) {
          missing.add(metric);
        }
      }
    }
    assertThat(missing).as("metrics used but not in the catalogue of operations.md").isEmpty();
  }

  @Test
  void everyDashboardPanelQueriesMetricsTheServicesServe() throws IOException {
    JsonNode dashboard = JsonMapper.builder().build().readTree(dashboardFile().toFile());
    assertThat(dashboard.path("uid").asString()).isNotBlank();
    assertThat(dashboard.path("templating").path("list").get(0).path("type").asString())
        .isEqualTo("datasource");
    Map<String, List<String>> targets = dashboardTargets();
    assertThat(targets).hasSizeGreaterThanOrEqualTo(20);
    Set<Integer> ids = new TreeSet<>();
    for (JsonNode panel : dashboard.path("panels")) {
      assertThat(ids.add(panel.path("id").asInt())).as("panel ids are unique").isTrue();
    }
    List<String> problems = new ArrayList<>();
    targets.forEach(
        (panel, exprs) -> exprs.forEach(e -> problems.addAll(catalogue.problems(panel, e))));
    assertThat(problems).isEmpty();
  }

  @Test
  void aMisspeltMetricAWrongLabelAndAnUnknownJobAreCaught() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Map<String, Object> rule :
        rules(Path.of("src/test/resources/deploy/misspelt-alerts.yml"))) {
      problems.addAll(
          catalogue.problems(String.valueOf(rule.get("alert")), String.valueOf(rule.get("expr"))));
    }
    assertThat(problems)
        .anySatisfy(p -> assertThat(p).contains("no service serves freshet_worker_fetch_total"))
        .anySatisfy(
            p -> assertThat(p).contains("freshet_worker_fetches_total has no label 'state'"))
        .anySatisfy(p -> assertThat(p).contains("no scrape job 'fetch_worker'"))
        .anySatisfy(
            p ->
                assertThat(p).contains("content-sink does not serve freshet_scheduler_due_backlog"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("no service serves freshet_sink_batch_latency_seconds_bucket"))
        .hasSize(5);
  }

  @Test
  void theAlertUnitTestsNameExistingAlerts() throws IOException {
    Set<String> alerts = new TreeSet<>();
    rules(ROOT.resolve("deploy/prometheus/alerts.yml"))
        .forEach(r -> alerts.add(String.valueOf(r.get("alert"))));
    Map<String, Object> tests =
        ComposeFile.yaml()
            .load(Files.readString(ROOT.resolve("deploy/prometheus/alerts.test.yml")));
    Set<String> tested = new TreeSet<>();
    for (Object t : (List<?>) tests.get("tests")) {
      for (Object a : (List<?>) ComposeFile.map(t).get("alert_rule_test")) {
        tested.add(String.valueOf(ComposeFile.map(a).get("alertname")));
      }
    }
    assertThat(alerts).containsAll(tested);
    assertThat(tested).hasSizeGreaterThanOrEqualTo(5);
  }

  // --- helpers ---------------------------------------------------------------------------------

  /** The rows of the "Metrics catalogue" section: metric name → documented labels. */
  private static Map<String, Set<String>> catalogueRows() throws IOException {
    List<String> lines = Files.readAllLines(ROOT.resolve("docs/operations.md"));
    Map<String, Set<String>> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : lines) {
      if (line.startsWith("## ")) {
        inSection = line.startsWith("## Metrics catalogue");
        continue;
      }
      Matcher m = CATALOGUE_ROW.matcher(line);
      if (inSection && m.find()) {
        Set<String> labels = new TreeSet<>();
        if (m.group(2) != null && !m.group(2).isEmpty()) {
          labels.addAll(List.of(m.group(2).split(",")));
        }
        rows.put(m.group(1), labels);
      }
    }
    assertThat(rows).as("catalogue rows in docs/operations.md").isNotEmpty();
    return rows;
  }

  /** The series' name without the sample suffixes (a timer's {@code X_seconds}). */
  private static String family(ServiceMeters.Series s) {
    Set<String> families = new TreeSet<>();
    s.sampleNames().forEach(n -> families.add(stripSuffix(n)));
    assertThat(families).as("one family for " + s.meter().name()).hasSize(1);
    return families.iterator().next();
  }

  private static String stripSuffix(String sample) {
    for (String suffix : SUFFIXES) {
      if (sample.endsWith(suffix)) {
        return sample.substring(0, sample.length() - suffix.length());
      }
    }
    return sample;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> rules(Path file) throws IOException {
    Map<String, Object> doc = ComposeFile.yaml().load(Files.readString(file));
    List<Map<String, Object>> rules = new ArrayList<>();
    for (Object g : (List<?>) doc.get("groups")) {
      Map<String, Object> group = ComposeFile.map(g);
      assertThat(group.get("name")).isNotNull();
      rules.addAll((List<Map<String, Object>>) group.get("rules"));
    }
    return rules;
  }

  private static Path dashboardFile() {
    return ROOT.resolve("deploy/grafana/freshet.json");
  }

  /** Panel title → its query expressions. */
  private static Map<String, List<String>> dashboardTargets() throws IOException {
    JsonNode dashboard = JsonMapper.builder().build().readTree(dashboardFile().toFile());
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.computeIfAbsent(panel.path("title").asString(), k -> new ArrayList<>())
            .add(target.path("expr").asString());
      }
    }
    return out;
  }
}
