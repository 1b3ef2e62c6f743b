package io.freshet.stack.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks that every environment variable a compose file (and a built service's Dockerfile) sets for
 * a service is one that service reads:
 *
 * <ul>
 *   <li>a Freshet service built from its module: a configuration property of its classpath or a
 *       placeholder of its application.yml ({@link SpringServiceVariables}); if its entrypoint runs
 *       another main class ({@code -Dloader.main=}), a {@code System.getenv("...")} of that class;
 *   <li>an {@code apache/kafka} broker: a broker setting or a start-script variable ({@link
 *       KafkaBrokerVariables});
 *   <li>anything else is a third-party image whose variables are not checked here: {@link
 *       Result#unchecked()} names them, so a new service cannot slip through unnoticed.
 * </ul>
 *
 * {@code JAVA_TOOL_OPTIONS} is read by every JVM.
 */
final class ComposeEnvironmentCheck {

  /** A variable set where nothing reads it. */
  record Violation(String service, String variable, String reader) {
    @Override
    public String toString() {
      return service + ": " + variable + " is read by nothing in " + reader;
    }
  }

  /** Violations, the bindings found (service → variable → what reads it), unchecked services. */
  record Result(
      List<Violation> violations,
      Map<String, Map<String, String>> bindings,
      Set<String> unchecked) {}

  static final Map<String, String> JVM_VARIABLES =
      Map.of("JAVA_TOOL_OPTIONS", "the JVM itself (options added to every java command)");

  private static final Pattern LOADER_MAIN = Pattern.compile("-Dloader\\.main=([\\w.$]+)");
  private static final Pattern GETENV =
      Pattern.compile("System\\.getenv\\(\\s*\"([^\"]+)\"\\s*\\)");

  /** Reading an exec jar's nested jars takes seconds: once per jar per test JVM. */
  private static final Map<Path, SpringServiceVariables> SPRING =
      new java.util.concurrent.ConcurrentHashMap<>();

  private final Path projectDir;

  ComposeEnvironmentCheck(Path projectDir) {
    this.projectDir = projectDir;
  }

  /** The variables a module's exec jar reads (cached; needs {@code package} to have run). */
  SpringServiceVariables springVariables(String module) {
    Path jar =
        FreshetProject.execJar(module)
            .orElseThrow(
                () -> new IllegalStateException(module + "'s exec jar is not built (package)"));
    return SPRING.computeIfAbsent(
        jar,
        j -> {
          try {
            return SpringServiceVariables.of(j);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  Result check(ComposeFile compose) throws IOException {
    List<Violation> violations = new ArrayList<>();
    Map<String, Map<String, String>> bindings = new LinkedHashMap<>();
    Set<String> unchecked = new LinkedHashSet<>();
    for (String service : compose.serviceNames()) {
      Reader reader = readerOf(compose, service);
      Map<String, String> env = new LinkedHashMap<>();
      // The image's own ENV counts too when the image runs its own program (the Spring app).
      Optional<Path> dockerfile = compose.dockerfile(service);
      if (reader instanceof SpringReader
          && dockerfile.isPresent()
          && Files.exists(dockerfile.get())) {
        env.putAll(Dockerfile.read(dockerfile.get()).env());
      }
      env.putAll(compose.environment(service));
      if (reader == null) {
        if (!env.isEmpty()) {
          unchecked.add(service);
        }
        continue;
      }
      Map<String, String> found = new LinkedHashMap<>();
      for (String variable : env.keySet()) {
        Optional<String> binding =
            Optional.ofNullable(JVM_VARIABLES.get(variable)).or(() -> reader.binding(variable));
        if (binding.isPresent()) {
          found.put(variable, binding.get());
        } else {
          violations.add(new Violation(service, variable, reader.name()));
        }
      }
      bindings.put(service, found);
    }
    return new Result(violations, bindings, unchecked);
  }

  /** What reads a service's environment. */
  private interface Reader {
    String name();

    Optional<String> binding(String variable);
  }

  /** A Spring Boot service: its configuration properties and application.yml placeholders. */
  private record SpringReader(String module, SpringServiceVariables vars) implements Reader {
    @Override
    public String name() {
      return module + " (" + vars.jar().getFileName() + ")";
    }

    @Override
    public Optional<String> binding(String variable) {
      return vars.binding(variable);
    }
  }

  private Reader readerOf(ComposeFile compose, String service) throws IOException {
    Optional<String> built = compose.buildModule(service);
    if (built.isPresent() && FreshetProject.isModule(built.get())) {
      String module = built.get();
      String mainClass = loaderMain(compose.entrypoint(service));
      if (mainClass != null) {
        Set<String> reads = getenvOf(mainClass);
        return new Reader() {
          @Override
          public String name() {
            return mainClass + " (System.getenv)";
          }

          @Override
          public Optional<String> binding(String variable) {
            return reads.contains(variable)
                ? Optional.of("System.getenv in " + mainClass)
                : Optional.empty();
          }
        };
      }
      return new SpringReader(module, springVariables(module));
    }
    Object image = compose.service(service).get("image");
    if (image != null && String.valueOf(image).startsWith("apache/kafka:")) {
      return new Reader() {
        @Override
        public String name() {
          return "the apache/kafka image (broker settings and start scripts)";
        }

        @Override
        public Optional<String> binding(String variable) {
          return KafkaBrokerVariables.binding(variable);
        }
      };
    }
    return null;
  }

  private static String loaderMain(List<String> entrypoint) {
    for (String arg : entrypoint) {
      Matcher m = LOADER_MAIN.matcher(arg);
      if (m.matches()) {
        return m.group(1);
      }
    }
    return null;
  }

  /** {@code System.getenv("X")} names in the main class's source, wherever its module is. */
  private Set<String> getenvOf(String mainClass) throws IOException {
    String relative = mainClass.replace('.', '/') + ".java";
    List<Path> sources;
    try (Stream<Path> modules = Files.list(projectDir)) {
      sources =
          modules
              .map(m -> m.resolve("src/main/java").resolve(relative))
              .filter(Files::exists)
              .toList();
    }
    if (sources.size() != 1) {
      throw new IllegalStateException("source of " + mainClass + " not found once: " + sources);
    }
    Set<String> names = new LinkedHashSet<>();
    Matcher m = GETENV.matcher(Files.readString(sources.getFirst()));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }
}
