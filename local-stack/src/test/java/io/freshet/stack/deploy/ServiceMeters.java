package io.freshet.stack.deploy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Freshet's own meters, read from the services' source code — every {@code Counter.builder}, {@code
 * Timer.builder}, {@code Gauge.builder}, {@code DistributionSummary.builder}, {@code
 * FunctionCounter.builder} and {@code registry.counter/timer/summary(...)} call — and the series
 * names Prometheus sees for them, obtained by registering each one (same type, tags, base unit and
 * histogram setting) in Micrometer's own {@link PrometheusMeterRegistry} and scraping it.
 */
final class ServiceMeters {

  enum Type {
    COUNTER,
    GAUGE,
    TIMER,
    SUMMARY
  }

  /** One meter as the code registers it. */
  record Meter(
      String service,
      String name,
      Type type,
      Set<String> tagKeys,
      boolean histogram,
      String baseUnit,
      String source) {}

  /** A Prometheus series family: the sample names one meter produces, and its label names. */
  record Series(Meter meter, Set<String> sampleNames, Set<String> labels) {}

  private static final Pattern BUILDER =
      Pattern.compile(
          "\\b(Counter|FunctionCounter|Gauge|Timer|DistributionSummary)\\.builder\\(\\s*\"([^\"]+)\"");
  private static final Pattern NOT_UNDERSTOOD =
      Pattern.compile(
          "\\b(FunctionTimer|LongTaskTimer|TimeGauge|MultiGauge)\\.builder\\(|\\.more\\(\\)"
              + "|\\.(gaugeCollectionSize|gaugeMapSize|functionCounter|functionTimer)\\(");
  private static final Pattern SHORTCUT =
      Pattern.compile("\\.\\s*(counter|timer|summary|gauge)\\(\\s*\"([^\"]+)\"");
  private static final Pattern TAG = Pattern.compile("\\.tags?\\(\\s*\"([^\"]+)\"");
  private static final Pattern BASE_UNIT = Pattern.compile("\\.baseUnit\\(\\s*\"([^\"]+)\"");
  private static final Pattern SAMPLE =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{([^}]*)})?\\s");

  private static final Pattern REGISTERS =
      Pattern.compile("\\b(counter|timer|gauge|summary|register|builder)\\s*\\(");

  private ServiceMeters() {}

  /**
   * Every meter registered in {@code <service>/src/main/java} of each service, and in the service
   * kit's code for each service that depends on it (its meters are every such service's).
   */
  static List<Meter> scan(Path projectDir, List<String> services) throws IOException {
    List<Meter> meters = new ArrayList<>();
    for (String service : services) {
      List<Path> sources = new ArrayList<>(List.of(projectDir.resolve(service)));
      if (Files.readString(projectDir.resolve(service).resolve("pom.xml"))
          .contains("<artifactId>service-kit</artifactId>")) {
        sources.add(projectDir.resolve("service-kit"));
      }
      for (Path module : sources) {
        meters.addAll(scanModule(service, module.resolve("src/main/java")));
      }
    }
    return meters;
  }

  private static List<Meter> scanModule(String service, Path src) throws IOException {
    List<Meter> meters = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> s = Files.walk(src)) {
      files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
    }
    for (Path file : files) {
      String code = Files.readString(file);
      List<Meter> found = scanFile(service, src.relativize(file).toString(), code);
      // a file that only passes a registry on to another registers nothing itself
      if (found.isEmpty() && code.contains("MeterRegistry") && REGISTERS.matcher(code).find()) {
        throw new IllegalStateException(
            file + " uses a MeterRegistry but no meter registration was recognised in it");
      }
      meters.addAll(found);
    }
    return meters;
  }

  static List<Meter> scanFile(String service, String source, String code) {
    Matcher unknown = NOT_UNDERSTOOD.matcher(code);
    if (unknown.find()) {
      throw new IllegalStateException(
          source + ": '" + unknown.group() + "' registers a meter this scan does not read yet");
    }
    List<Meter> meters = new ArrayList<>();
    Matcher b = BUILDER.matcher(code);
    while (b.find()) {
      int end = code.indexOf(".register(", b.end());
      if (end < 0) {
        throw new IllegalStateException(source + ": " + b.group(2) + " is never registered");
      }
      String chain = code.substring(b.end(), end);
      Set<String> tags = new LinkedHashSet<>();
      Matcher t = TAG.matcher(chain);
      while (t.find()) {
        tags.add(t.group(1));
      }
      Matcher u = BASE_UNIT.matcher(chain);
      meters.add(
          new Meter(
              service,
              b.group(2),
              switch (b.group(1)) {
                case "Counter", "FunctionCounter" -> Type.COUNTER;
                case "Gauge" -> Type.GAUGE;
                case "Timer" -> Type.TIMER;
                default -> Type.SUMMARY;
              },
              tags,
              chain.contains(".publishPercentileHistogram()"),
              u.find() ? u.group(1) : null,
              source));
    }
    Matcher s = SHORTCUT.matcher(code);
    while (s.find()) {
      List<String> args = arguments(code, s.end());
      if (s.group(1).equals("gauge")) {
        throw new IllegalStateException(source + ": registry.gauge(...) is not understood here");
      }
      Set<String> tags = new LinkedHashSet<>();
      for (int i = 0; i < args.size(); i += 2) {
        String key = args.get(i).trim();
        if (!key.matches("\"[^\"]+\"")) {
          throw new IllegalStateException(
              source + ": tag key of " + s.group(2) + " is not a string literal: " + key);
        }
        tags.add(key.substring(1, key.length() - 1));
      }
      meters.add(
          new Meter(
              service,
              s.group(2),
              switch (s.group(1)) {
                case "counter" -> Type.COUNTER;
                case "timer" -> Type.TIMER;
                default -> Type.SUMMARY;
              },
              tags,
              false,
              null,
              source));
    }
    return meters;
  }

  /** The arguments after the name, up to the call's closing parenthesis, split at top level. */
  private static List<String> arguments(String code, int afterName) {
    List<String> args = new ArrayList<>();
    int depth = 0;
    boolean inString = false;
    StringBuilder current = new StringBuilder();
    for (int i = afterName; i < code.length(); i++) {
      char c = code.charAt(i);
      if (inString) {
        current.append(c);
        if (c == '\\') {
          current.append(code.charAt(++i));
        } else if (c == '"') {
          inString = false;
        }
        continue;
      }
      if (c == '"') {
        inString = true;
        current.append(c);
      } else if (c == '(') {
        depth++;
        current.append(c);
      } else if (c == ')') {
        if (depth == 0) {
          addArgument(args, current);
          return args;
        }
        depth--;
        current.append(c);
      } else if (c == ',' && depth == 0) {
        addArgument(args, current);
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    throw new IllegalStateException("unbalanced call at " + afterName);
  }

  private static void addArgument(List<String> args, StringBuilder current) {
    String a = current.toString().trim();
    if (!a.isEmpty()) {
      args.add(a);
    }
  }

  /** The Prometheus series of each meter, by Micrometer's own naming. */
  static List<Series> series(List<Meter> meters) {
    List<Series> out = new ArrayList<>();
    for (Meter m : meters) {
      var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
      Tags tags = Tags.empty();
      for (String k : m.tagKeys()) {
        tags = tags.and(k, "x");
      }
      switch (m.type()) {
        case COUNTER -> Counter.builder(m.name()).tags(tags).register(registry).increment();
        case GAUGE ->
            Gauge.builder(m.name(), () -> 1).baseUnit(m.baseUnit()).tags(tags).register(registry);
        case TIMER ->
            Timer.builder(m.name())
                .tags(tags)
                .publishPercentileHistogram(m.histogram())
                .register(registry)
                .record(Duration.ofMillis(5));
        case SUMMARY ->
            DistributionSummary.builder(m.name())
                .baseUnit(m.baseUnit())
                .tags(tags)
                .publishPercentileHistogram(m.histogram())
                .register(registry)
                .record(5);
      }
      Map<String, Set<String>> samples = samples(registry.scrape());
      Set<String> labels = new TreeSet<>();
      samples.values().forEach(labels::addAll);
      labels.remove("le");
      out.add(new Series(m, samples.keySet(), labels));
      registry.close();
    }
    return out;
  }

  /** Sample name → label names, from Prometheus text exposition. */
  static Map<String, Set<String>> samples(String exposition) {
    Map<String, Set<String>> out = new TreeMap<>();
    for (String line : exposition.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      Matcher m = SAMPLE.matcher(line);
      if (!m.find()) {
        throw new IllegalArgumentException("not a sample: " + line);
      }
      Set<String> labels = out.computeIfAbsent(m.group(1), k -> new TreeSet<>());
      if (m.group(3) != null && !m.group(3).isBlank()) {
        for (String pair : m.group(3).split(",(?=[a-zA-Z_][a-zA-Z0-9_]*=\")")) {
          labels.add(pair.substring(0, pair.indexOf('=')));
        }
      }
    }
    return out;
  }

  /** Sample name → its series, over all meters. */
  static Map<String, Series> bySampleName(List<Series> series) {
    Map<String, Series> out = new LinkedHashMap<>();
    for (Series s : series) {
      for (String name : s.sampleNames()) {
        out.put(name, s);
      }
    }
    return out;
  }
}
