package io.freshet.stack.deploy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The environment variables one Spring Boot service reads, derived from its executable jar — the
 * exact classpath it runs with:
 *
 * <ul>
 *   <li>every configuration property of that classpath, from each {@code
 *       META-INF/spring-configuration-metadata.json} (Spring Boot's modules, the service's own
 *       {@code @ConfigurationProperties} records through the configuration processor), reached
 *       through Spring's relaxed binding of environment variables: {@code
 *       freshet.scheduler.batch-size} is {@code FRESHET_SCHEDULER_BATCH_SIZE} or {@code
 *       FRESHET_SCHEDULER_BATCHSIZE}; a map property takes any {@code _KEY} suffix, a list an
 *       {@code _N} index;
 *   <li>every {@code ${NAME...}} placeholder of its {@code application.yml}.
 * </ul>
 *
 * Properties deprecated at level {@code error} (no longer bound) and ignored ones do not count.
 */
final class SpringServiceVariables {

  /** One bindable property: its name and whether it is a map or a list. */
  record Property(String name, String type) {
    boolean isMap() {
      return type != null && (type.startsWith("java.util.Map") || type.contains("Properties<"));
    }

    boolean isList() {
      return type != null
          && (type.startsWith("java.util.List")
              || type.startsWith("java.util.Set")
              || type.startsWith("java.util.Collection")
              || type.endsWith("[]"));
    }
  }

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.\\-]+)[:}]");
  private static final Set<String> METADATA =
      Set.of(
          "META-INF/spring-configuration-metadata.json",
          "META-INF/additional-spring-configuration-metadata.json");

  private final Path jar;
  private final Map<String, Property> properties;
  private final Set<String> placeholders;
  private final String applicationYml;

  private SpringServiceVariables(
      Path jar, Map<String, Property> properties, Set<String> placeholders, String yml) {
    this.jar = jar;
    this.properties = properties;
    this.placeholders = placeholders;
    this.applicationYml = yml;
  }

  /** Reads the metadata of every jar nested in {@code execJar} and its own classes. */
  static SpringServiceVariables of(Path execJar) throws IOException {
    Map<String, Property> properties = new TreeMap<>();
    Set<String> ignored = new HashSet<>();
    String yml = "";
    try (ZipFile zip = new ZipFile(execJar.toFile())) {
      for (ZipEntry e : java.util.Collections.list(zip.entries())) {
        String name = e.getName();
        // The service's own metadata: Spring Boot's repackaging moves META-INF of its classes to
        // the jar's root.
        if (METADATA.contains(name)
            || (name.startsWith("BOOT-INF/classes/")
                && METADATA.contains(name.substring("BOOT-INF/classes/".length())))) {
          try (InputStream in = zip.getInputStream(e)) {
            readMetadata(in, properties, ignored);
          }
        } else if (name.equals("BOOT-INF/classes/application.yml")) {
          try (InputStream in = zip.getInputStream(e)) {
            yml = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
          }
        } else if (name.startsWith("BOOT-INF/lib/") && name.endsWith(".jar")) {
          try (ZipInputStream nested = new ZipInputStream(zip.getInputStream(e))) {
            for (ZipEntry n = nested.getNextEntry(); n != null; n = nested.getNextEntry()) {
              if (METADATA.contains(n.getName())) {
                readMetadata(nested, properties, ignored);
              }
            }
          }
        }
      }
    }
    ignored.forEach(properties::remove);
    if (yml.isEmpty()) {
      throw new IllegalStateException(execJar + " has no BOOT-INF/classes/application.yml");
    }
    Set<String> placeholders = new HashSet<>();
    Matcher m = PLACEHOLDER.matcher(yml);
    while (m.find()) {
      placeholders.add(m.group(1));
    }
    return new SpringServiceVariables(execJar, properties, placeholders, yml);
  }

  private static void readMetadata(
      InputStream in, Map<String, Property> properties, Set<String> ignored) throws IOException {
    JsonNode root = JSON.readTree(in.readAllBytes());
    for (JsonNode p : root.path("properties")) {
      if ("error".equals(p.path("deprecation").path("level").asString(""))) {
        continue;
      }
      String name = p.path("name").asString();
      String type = p.path("type").isMissingNode() ? null : p.path("type").asString();
      properties.merge(name, new Property(name, type), (a, b) -> a.type() != null ? a : b);
    }
    for (JsonNode p : root.path("ignored").path("properties")) {
      ignored.add(p.path("name").asString());
    }
  }

  Path jar() {
    return jar;
  }

  /** How many properties the classpath declares (a sanity figure for the tests). */
  int propertyCount() {
    return properties.size();
  }

  /**
   * What {@code variable} sets in this service: the property it binds to, or the placeholder that
   * reads it; empty when the service never reads it.
   */
  Optional<String> binding(String variable) {
    for (String p : placeholders) {
      if (variable.equals(p) || variable.equals(legacyEnvName(p))) {
        return Optional.of("${" + p + "} in application.yml");
      }
    }
    for (Property p : properties.values()) {
      for (String form : envNames(p.name())) {
        if (variable.equals(form)) {
          return Optional.of(p.name());
        }
        if (p.isMap() && variable.startsWith(form + "_") && variable.length() > form.length() + 1) {
          return Optional.of(p.name() + "[" + variable.substring(form.length() + 1) + "]");
        }
        if (p.isList() && variable.matches(Pattern.quote(form) + "_\\d+(_[A-Z0-9_]+)?")) {
          return Optional.of(p.name() + "[" + variable.substring(form.length() + 1) + "]");
        }
      }
    }
    return Optional.empty();
  }

  /**
   * The keys of the service's application.yml, flattened ({@code spring.kafka.bootstrap-servers}).
   */
  List<String> applicationYmlKeys() {
    List<String> keys = new ArrayList<>();
    flatten("", ComposeFile.yaml().load(applicationYml), keys);
    return keys;
  }

  /** The raw value of a key of the service's application.yml ({@code server.port}), or null. */
  Object applicationYmlValue(String key) {
    Object node = ComposeFile.yaml().load(applicationYml);
    for (String part : key.split("\\.")) {
      if (!(node instanceof Map<?, ?> m)) {
        return null;
      }
      node = m.get(part);
    }
    return node;
  }

  private static void flatten(String prefix, Object node, List<String> keys) {
    if (node instanceof Map<?, ?> m && !m.isEmpty()) {
      m.forEach(
          (k, v) -> flatten(prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k, v, keys));
    } else {
      keys.add(prefix);
    }
  }

  /**
   * The environment variable names Spring Boot binds to {@code property}: elements upper-cased and
   * joined by {@code _}, dashes dropped ({@code ..._BATCHSIZE}) or, the legacy form, turned into
   * {@code _} ({@code ..._BATCH_SIZE}).
   */
  static List<String> envNames(String property) {
    String upper = property.toUpperCase(Locale.ROOT).replace('.', '_');
    String uniform = upper.replace("-", "");
    String legacy = upper.replace('-', '_');
    return uniform.equals(legacy) ? List.of(uniform) : List.of(uniform, legacy);
  }

  private static String legacyEnvName(String property) {
    return property.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  /** Every property name (for messages). */
  Map<String, Property> properties() {
    return new LinkedHashMap<>(properties);
  }
}
