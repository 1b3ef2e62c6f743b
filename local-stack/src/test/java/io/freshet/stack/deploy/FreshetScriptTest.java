package io.freshet.stack.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./freshet up} builds what is missing or older than its sources, so a code change is never
 * run from a stale jar. Checked on a copy of the script in a checkout made of empty files whose
 * modification times the test sets.
 */
class FreshetScriptTest {

  private static final List<String> SERVICES =
      List.of(
          "scheduler-producer",
          "fetch-worker",
          "content-sink",
          "stats-aggregator",
          "push-receiver");
  private static final Instant SOURCES = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant BUILT = Instant.parse("2026-01-02T00:00:00Z");
  private static final Instant EDITED = Instant.parse("2026-01-03T00:00:00Z");

  @TempDir Path root;

  @BeforeEach
  void aCheckoutBuiltAfterItsLastChange() throws IOException {
    Files.copy(FreshetProject.root().resolve("freshet"), root.resolve("freshet"));
    root.resolve("freshet").toFile().setExecutable(true);
    file("pom.xml", SOURCES);
    for (String lib : List.of("schemas", "cadence", "cadence-lab", "local-stack")) {
      file(lib + "/pom.xml", SOURCES);
      file(lib + "/src/main/java/A.java", SOURCES);
    }
    file("local-stack/target/local-stack.classpath", BUILT);
    file("local-stack/target/classes/io/freshet/stack/launcher/LocalStack.class", BUILT);
    file("local-stack/target/apicurio-registry/quarkus-run.jar", BUILT);
    for (String m : SERVICES) {
      file(m + "/pom.xml", SOURCES);
      file(m + "/src/main/java/A.java", SOURCES);
      file(m + "/target/" + m + "-0.1.0-SNAPSHOT-exec.jar", BUILT);
    }
    file("cadence-replay/pom.xml", SOURCES);
    file("cadence-replay/src/main/java/A.java", SOURCES);
    file("cadence-replay/target/cadence-replay.jar", BUILT);
  }

  @Test
  void nothingIsRebuiltWhenEveryJarIsNewerThanItsSources() throws Exception {
    assertThat(stale()).isEmpty();
  }

  @Test
  void aServiceWhoseSourceChangedAfterItsJarIsRebuilt() throws Exception {
    file("fetch-worker/src/main/java/A.java", EDITED);

    assertThat(stale()).containsExactly("fetch-worker");
  }

  @Test
  void aChangedLibraryRebuildsEveryServiceAndTheLauncher() throws Exception {
    file("schemas/src/main/java/A.java", EDITED);

    assertThat(stale())
        .containsExactly(
            "local-stack",
            "scheduler-producer",
            "fetch-worker",
            "content-sink",
            "stats-aggregator",
            "push-receiver");
  }

  @Test
  void aMissingJarOrAChangedLauncherIsBuilt() throws Exception {
    Files.delete(root.resolve("content-sink/target/content-sink-0.1.0-SNAPSHOT-exec.jar"));
    file("local-stack/src/main/java/A.java", EDITED);

    assertThat(stale()).containsExactly("local-stack", "content-sink");
  }

  @Test
  void theReplayToolIsBuiltOnlyForReplayWhenTheLabOrItsOwnSourcesChanged() throws Exception {
    file("cadence-lab/src/main/java/A.java", EDITED);

    assertThat(stale()).as("up builds no service for the lab: none depends on it").isEmpty();
    assertThat(stale("--tools")).containsExactly("cadence-replay");

    file("cadence-replay/target/cadence-replay.jar", EDITED.plusSeconds(60));
    assertThat(stale("--tools")).isEmpty();
    Files.delete(root.resolve("cadence-replay/target/cadence-replay.jar"));
    assertThat(stale("--tools")).containsExactly("cadence-replay");
  }

  private List<String> stale(String... args) throws Exception {
    List<String> command =
        new java.util.ArrayList<>(List.of("bash", root.resolve("freshet").toString(), "stale"));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(out).isZero();
    return out.lines().filter(l -> !l.isBlank()).toList();
  }

  private void file(String path, Instant modified) throws IOException {
    Path f = root.resolve(path);
    Files.createDirectories(f.getParent());
    if (!Files.exists(f)) {
      Files.createFile(f);
    }
    Files.setLastModifiedTime(f, FileTime.from(modified));
  }
}
