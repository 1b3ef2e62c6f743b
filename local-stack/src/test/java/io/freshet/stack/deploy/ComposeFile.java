package io.freshet.stack.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A compose file as {@code docker compose config} sees it: YAML (anchors and aliases resolved),
 * every string value interpolated from an environment. Only what the checks need is exposed.
 *
 * @param path the file
 * @param model the interpolated document (maps, lists, scalars)
 * @param interpolation what the interpolation referenced and required
 */
record ComposeFile(Path path, Map<String, Object> model, ComposeInterpolation interpolation) {

  /** Loads {@code path}, interpolating with {@code interpolation}'s environment. */
  static ComposeFile load(Path path, ComposeInterpolation interpolation) throws IOException {
    Object raw = yaml().load(Files.readString(path));
    if (!(raw instanceof Map<?, ?>)) {
      throw new IllegalArgumentException(path + ": not a YAML mapping");
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> model = (Map<String, Object>) interpolateAll(raw, interpolation);
    return new ComposeFile(path, model, interpolation);
  }

  /** A YAML loader that builds plain maps, lists and scalars (no arbitrary types). */
  static Yaml yaml() {
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    return new Yaml(new SafeConstructor(options));
  }

  private static Object interpolateAll(Object node, ComposeInterpolation interpolation) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      map.forEach((k, v) -> out.put(String.valueOf(k), interpolateAll(v, interpolation)));
      return out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      list.forEach(v -> out.add(interpolateAll(v, interpolation)));
      return out;
    }
    if (node instanceof String s) {
      return interpolation.interpolate(s);
    }
    return node;
  }

  /** Service names, in file order. */
  List<String> serviceNames() {
    return List.copyOf(services().keySet());
  }

  Map<String, Object> service(String name) {
    Map<String, Object> s = map(services().get(name));
    if (s == null) {
      throw new IllegalArgumentException("no service " + name + " in " + path);
    }
    return s;
  }

  /** The service's environment, whichever of the two forms (map or KEY=VALUE list) it uses. */
  Map<String, String> environment(String name) {
    Object env = service(name).get("environment");
    Map<String, String> out = new LinkedHashMap<>();
    if (env instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put(String.valueOf(k), v == null ? null : String.valueOf(v)));
    } else if (env instanceof List<?> l) {
      for (Object entry : l) {
        String s = String.valueOf(entry);
        int eq = s.indexOf('=');
        out.put(eq < 0 ? s : s.substring(0, eq), eq < 0 ? null : s.substring(eq + 1));
      }
    }
    return out;
  }

  /** The build context of a service built from a directory of this project, if it has one. */
  Optional<Path> buildContext(String name) {
    Object build = service(name).get("build");
    String context = null;
    if (build instanceof String s) {
      context = s;
    } else if (build instanceof Map<?, ?> m && m.get("context") != null) {
      context = String.valueOf(m.get("context"));
    }
    return Optional.ofNullable(context).map(c -> path.getParent().resolve(c).normalize());
  }

  /** A build argument of a built service ({@code build.args}), or null. */
  String buildArg(String name, String arg) {
    Object build = service(name).get("build");
    if (build instanceof Map<?, ?> m && m.get("args") instanceof Map<?, ?> args) {
      Object value = args.get(arg);
      return value == null ? null : String.valueOf(value);
    }
    return null;
  }

  /**
   * The project module a built service's image is made of: the {@code MODULE} build argument of the
   * one Dockerfile, or (a context of its own) the context directory's name.
   */
  Optional<String> buildModule(String name) {
    String module = buildArg(name, "MODULE");
    if (module != null) {
      return Optional.of(module);
    }
    return buildContext(name).map(c -> c.getFileName().toString());
  }

  /** The Dockerfile a built service uses ({@code Dockerfile} in its context unless named). */
  Optional<Path> dockerfile(String name) {
    Object build = service(name).get("build");
    String file =
        build instanceof Map<?, ?> m && m.get("dockerfile") != null
            ? String.valueOf(m.get("dockerfile"))
            : "Dockerfile";
    return buildContext(name).map(c -> c.resolve(file));
  }

  /** The service's {@code entrypoint} as a list (a string form is split on blanks). */
  List<String> entrypoint(String name) {
    return stringList(service(name).get("entrypoint"));
  }

  /** Container ports the service publishes (the part after the last {@code :}). */
  List<Integer> publishedContainerPorts(String name) {
    List<Integer> ports = new ArrayList<>();
    for (String p : stringList(service(name).get("ports"))) {
      String target = p.substring(p.lastIndexOf(':') + 1);
      int slash = target.indexOf('/');
      ports.add(Integer.parseInt(slash < 0 ? target : target.substring(0, slash)));
    }
    return ports;
  }

  Map<String, Object> services() {
    Map<String, Object> services = map(model.get("services"));
    return services == null ? Map.of() : services;
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> ? (Map<String, Object>) o : null;
  }

  static List<String> stringList(Object o) {
    if (o == null) {
      return List.of();
    }
    if (o instanceof List<?> l) {
      return l.stream().map(String::valueOf).toList();
    }
    return List.of(String.valueOf(o).trim().split("\\s+"));
  }
}
