package io.freshet.stack.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where the project is (tests run in {@code local-stack/}) and what its root pom pins. */
final class FreshetProject {

  /** The four services, as modules and compose service names. */
  static final List<String> SERVICES =
      List.of("scheduler-producer", "fetch-worker", "content-sink", "stats-aggregator");

  /**
   * The services whose meters the metrics catalogue lists: the four, and the push-receiver, which
   * is not yet in the compose file or the local stack.
   */
  static final List<String> METERED_SERVICES =
      List.of(
          "scheduler-producer",
          "fetch-worker",
          "content-sink",
          "stats-aggregator",
          "push-receiver");

  private FreshetProject() {}

  static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.exists(dir.resolve("mvnw")) && Files.exists(dir.resolve("docker-compose.yml"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException("no project root above " + Path.of("").toAbsolutePath());
  }

  /** A {@code <properties>} value of the root pom, e.g. {@code kafka.version}. */
  static String pomProperty(String name) {
    try {
      String pom = Files.readString(root().resolve("pom.xml"));
      Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(pom);
      if (!m.find()) {
        throw new IllegalArgumentException("no <" + name + "> in the root pom");
      }
      return m.group(1).trim();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether {@code name} is a module directory of this project. */
  static boolean isModule(String name) {
    return Files.exists(root().resolve(name).resolve("pom.xml"));
  }

  /** The module's executable jar, once {@code package} has built it. */
  static Optional<Path> execJar(String module) {
    Path target = root().resolve(module).resolve("target");
    if (!Files.isDirectory(target)) {
      return Optional.empty();
    }
    List<Path> jars = new ArrayList<>();
    try (DirectoryStream<Path> s = Files.newDirectoryStream(target, module + "-*-exec.jar")) {
      s.forEach(jars::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (jars.size() > 1) {
      throw new IllegalStateException("more than one exec jar in " + target + ": " + jars);
    }
    return jars.stream().findFirst();
  }

  /** Whether every service's exec jar is built (true in {@code verify}: package runs first). */
  static boolean execJarsBuilt() {
    return SERVICES.stream().allMatch(m -> execJar(m).isPresent());
  }
}
