package io.freshet.stack.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every metric series the services serve, by Prometheus sample name, with the services that serve
 * it and its label names: Freshet's own from the code ({@link ServiceMeters}), the libraries' from
 * a real run ({@code observed-metrics.tsv}), and {@code up} from Prometheus. {@link #problems}
 * checks one PromQL expression against it.
 */
final class MetricCatalogue {

  /** One sample name: who serves it and its labels. */
  record Entry(String name, Set<String> services, Set<String> labels, boolean freshet) {}

  /** Labels Prometheus adds to every scraped series. */
  static final Set<String> TARGET_LABELS = Set.of("job", "instance");

  private static final Pattern JOB_MATCHER =
      Pattern.compile("\\bjob\\s*(=~|=|!=|!~)\\s*\"([^\"]*)\"");

  private final Map<String, Entry> entries;
  private final Set<String> jobs;

  private MetricCatalogue(Map<String, Entry> entries, Set<String> jobs) {
    this.entries = entries;
    this.jobs = jobs;
  }

  /**
   * @param series Freshet's meters as Prometheus series
   * @param observed the observed-metrics file
   * @param jobs the scrape job names (= compose service names)
   */
  static MetricCatalogue of(List<ServiceMeters.Series> series, Path observed, Set<String> jobs)
      throws IOException {
    Map<String, Entry> entries = new LinkedHashMap<>();
    for (ServiceMeters.Series s : series) {
      for (String name : s.sampleNames()) {
        entries.merge(
            name,
            new Entry(name, new TreeSet<>(Set.of(s.meter().service())), s.labels(), true),
            (a, b) -> {
              a.services().addAll(b.services());
              return a;
            });
      }
    }
    for (String line : Files.readAllLines(observed)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      String[] cols = line.split("\t", -1);
      entries.putIfAbsent(
          cols[0],
          new Entry(
              cols[0],
              new TreeSet<>(List.of(cols[1].split(","))),
              cols[2].isEmpty() ? Set.of() : new TreeSet<>(List.of(cols[2].split(","))),
              false));
    }
    entries.put("up", new Entry("up", new TreeSet<>(jobs), Set.of(), false));
    return new MetricCatalogue(entries, jobs);
  }

  Entry get(String name) {
    return entries.get(name);
  }

  boolean contains(String name) {
    return entries.containsKey(name);
  }

  /**
   * What is wrong with one expression: a metric no service serves, a label it does not have, a job
   * no scrape config has, or a metric selected on a job that does not serve it.
   */
  List<String> problems(String where, String expr) {
    List<String> problems = new ArrayList<>();
    Set<String> selectedJobs = new TreeSet<>();
    Matcher j = JOB_MATCHER.matcher(expr);
    while (j.find()) {
      for (String job : j.group(2).split("\\|")) {
        if (!jobs.contains(job)) {
          problems.add(where + ": no scrape job '" + job + "' in: " + expr);
        }
        if (j.group(1).equals("=") || j.group(1).equals("=~")) {
          selectedJobs.add(job);
        }
      }
    }
    PromQl.selectors(expr)
        .forEach(
            (metric, labels) -> {
              Entry e = entries.get(metric);
              if (e == null) {
                problems.add(where + ": no service serves " + metric + " (in: " + expr + ")");
                return;
              }
              for (String label : labels) {
                if (!e.labels().contains(label) && !TARGET_LABELS.contains(label)) {
                  problems.add(where + ": " + metric + " has no label '" + label + "'");
                }
              }
              if (labels.contains("job") && !metric.equals("up")) {
                for (String job : selectedJobs) {
                  if (jobs.contains(job) && !e.services().contains(job)) {
                    problems.add(where + ": " + job + " does not serve " + metric);
                  }
                }
              }
            });
    return problems;
  }
}
