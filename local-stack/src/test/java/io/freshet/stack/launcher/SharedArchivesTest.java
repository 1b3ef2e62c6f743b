package io.freshet.stack.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedArchivesTest {

  @TempDir Path dir;

  @Test
  void onUnlessSaidOffAndAnythingElseIsAClearError() {
    assertThat(SharedArchives.enabled(null)).isTrue();
    assertThat(SharedArchives.enabled(" ")).isTrue();
    assertThat(SharedArchives.enabled("on")).isTrue();
    assertThat(SharedArchives.enabled("OFF")).isFalse();
    assertThat(SharedArchives.enabled("false")).isFalse();
    assertThatThrownBy(() -> SharedArchives.enabled("sometimes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("FRESHET_CDS must be on or off");
  }

  @Test
  void aCleanStopsRecordingBecomesTheArchiveAndALaterOneDoesNotReplaceIt() throws Exception {
    Path first = Files.writeString(dir.resolve("content-sink-1-1.jsa.part"), "first");
    Path second = Files.writeString(dir.resolve("content-sink-1-2.jsa.part"), "second");
    SharedArchives.promote("content-sink", first);
    SharedArchives.promote("content-sink", second);
    assertThat(Files.readString(dir.resolve("content-sink.jsa"))).isEqualTo("first");
    assertThat(first).doesNotExist();
    assertThat(second).doesNotExist();
  }

  @Test
  void aProcessThatWroteNothingLeavesNoArchive() throws Exception {
    Path empty = Files.createFile(dir.resolve("fetch-worker-1-3.jsa.part"));
    SharedArchives.promote("fetch-worker", empty);
    SharedArchives.promote("fetch-worker", dir.resolve("fetch-worker-1-4.jsa.part"));
    SharedArchives.promote("fetch-worker", null);
    assertThat(dir.resolve("fetch-worker.jsa")).doesNotExist();
    assertThat(empty).doesNotExist();
  }

  @Test
  void aJarThatCannotBeExtractedStartsAsItIs() throws Exception {
    Path target = Files.createDirectories(dir.resolve("content-sink").resolve("target"));
    Path notABootJar = Files.writeString(target.resolve("content-sink-0-exec.jar"), "not a jar");
    String java = ProcessHandle.current().info().command().orElse("java");
    SharedArchives.Launch launch = new SharedArchives(java).prepare("content-sink", notABootJar);
    assertThat(launch.jar()).isEqualTo(notABootJar);
    assertThat(launch.options()).isEmpty();
    assertThat(launch.recording()).isNull();
    // nothing half-made is left to be taken for an extraction later
    try (var left = Files.list(target.resolve("cds"))) {
      assertThat(left).isEmpty();
    }
  }
}
