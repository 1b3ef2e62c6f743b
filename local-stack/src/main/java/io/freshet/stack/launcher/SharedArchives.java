package io.freshet.stack.launcher;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Application class-data sharing (AppCDS) for the services' start-up: each {@code -exec.jar} is
 * extracted once per build into {@code <module>/target/cds/<key>/} (Spring Boot's {@code tools} jar
 * mode: a class in a jar nested inside the exec jar can never enter an archive), the first start
 * from there records the classes it loaded into an archive that the JVM writes when the service
 * stops ({@code -XX:ArchiveClassesAtExit}, JDK 13+), and every later start maps that archive
 * ({@code -XX:SharedArchiveFile}) instead of loading and verifying those classes again.
 *
 * <p>The key is the exec jar's size and modification time and the {@code java} used, so a rebuilt
 * jar or another JDK starts a fresh directory (older ones are removed). Each process records into a
 * file of its own, moved to the archive only after the process stopped cleanly ({@link #promote}):
 * a killed service leaves nothing half-written, and two instances of one module never write one
 * file. An archive the JVM cannot use (another build of the same JDK) is ignored by it: the service
 * starts as it would without. {@code FRESHET_CDS=off} turns all of this off (the exec jars as they
 * are); a failed extraction does too, for that module, and says why.
 */
final class SharedArchives {

  /** The variable that turns class-data sharing off ({@code off}); on by default. */
  static final String VARIABLE = "FRESHET_CDS";

  private static final AtomicLong RECORDINGS = new AtomicLong();

  private final String java;

  SharedArchives(String java) {
    this.java = java;
  }

  /**
   * Whether {@code FRESHET_CDS} asks for sharing: anything but {@code off}/{@code false}/{@code 0}.
   */
  static boolean enabled(String value) {
    if (value == null || value.isBlank()) {
      return true;
    }
    return switch (value.strip().toLowerCase(Locale.ROOT)) {
      case "off", "false", "0", "no" -> false;
      case "on", "true", "1", "yes" -> true;
      default ->
          throw new IllegalArgumentException(
              VARIABLE
                  + " must be on or off (class-data sharing for the services), got '"
                  + value
                  + "'");
    };
  }

  /**
   * How one process of a module starts: the jar to run, the JVM options to add, and where the
   * process records its archive (null when it maps an existing one).
   */
  record Launch(String module, Path jar, List<String> options, Path recording) {}

  /**
   * The launch of a process from {@code execJar}: from the extracted jar with the module's archive,
   * or recording one when there is none yet; the exec jar as it is when extraction fails.
   */
  Launch prepare(String module, Path execJar) {
    try {
      Path dir = extracted(module, execJar);
      Path jar = dir.resolve("app").resolve(execJar.getFileName());
      Path archive = archive(dir, module);
      List<String> options = new ArrayList<>();
      // the JVM's own notes on classes it cannot archive (a dozen lines) are not the service's log
      options.add("-Xlog:cds=off");
      options.add("-Xlog:cds+dynamic=off");
      if (Files.isRegularFile(archive)) {
        options.add("-XX:SharedArchiveFile=" + archive);
        return new Launch(module, jar, options, null);
      }
      Path recording =
          dir.resolve(
              module
                  + "-"
                  + ProcessHandle.current().pid()
                  + "-"
                  + RECORDINGS.incrementAndGet()
                  + ".jsa.part");
      options.add("-XX:ArchiveClassesAtExit=" + recording);
      return new Launch(module, jar, options, recording);
    } catch (IOException | RuntimeException e) {
      System.err.printf(
          "%s: class-data sharing off for this start (%s); starting the exec jar as it is%n",
          module, e.getMessage());
      return new Launch(module, execJar, List.of(), null);
    }
  }

  /**
   * After a process that recorded has stopped: its recording becomes the module's archive, unless
   * another one got there first or the process wrote none (killed).
   */
  static void promote(String module, Path recording) {
    if (recording == null) {
      return;
    }
    Path archive = archive(recording.getParent(), module);
    try {
      if (Files.isRegularFile(recording) && Files.size(recording) > 0 && !Files.exists(archive)) {
        Files.move(recording, archive, StandardCopyOption.ATOMIC_MOVE);
      }
    } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
      // another instance's archive is in place: this one is not needed
    } catch (IOException e) {
      System.err.printf("%s: class-data archive not kept (%s)%n", module, e.getMessage());
    } finally {
      discard(recording);
    }
  }

  /** A recording that will not become an archive (moved already, or written by a killed JVM). */
  static void discard(Path recording) {
    if (recording == null) {
      return;
    }
    try {
      Files.deleteIfExists(recording);
    } catch (IOException ignored) {
      // a leftover recording is only disk space, removed with the directory at the next build
    }
  }

  private static Path archive(Path dir, String module) {
    return dir.resolve(module + ".jsa");
  }

  /** The module's extraction for this exec jar and JDK, made now if it is not there. */
  private Path extracted(String module, Path execJar) throws IOException {
    Path root = execJar.getParent().resolve("cds");
    String key =
        Files.size(execJar)
            + "-"
            + Files.getLastModifiedTime(execJar).toMillis()
            + "-"
            + Integer.toHexString(java.hashCode());
    Path dir = root.resolve(key);
    if (Files.isRegularFile(dir.resolve("app").resolve(execJar.getFileName()))) {
      return dir;
    }
    Files.createDirectories(root);
    removeOthers(root, key);
    Path staging = Files.createTempDirectory(root, key + ".staging-");
    Path app = staging.resolve("app");
    Process p =
        new ProcessBuilder(
                java,
                "-Djarmode=tools",
                "-jar",
                execJar.toString(),
                "extract",
                "--destination",
                app.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    try {
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        p.destroyForcibly();
        delete(staging);
        throw new IOException("extracting " + execJar.getFileName() + " failed");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      delete(staging);
      throw new IOException("interrupted while extracting " + execJar.getFileName());
    }
    try {
      Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      delete(staging); // another launcher extracted the same jar first: use that one
      if (!Files.isDirectory(dir)) {
        throw e;
      }
    }
    return dir;
  }

  /** Extractions of earlier builds (another key): they are never used again. */
  private static void removeOthers(Path root, String key) throws IOException {
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root)) {
      for (Path d : dirs) {
        String name = d.getFileName().toString();
        if (!name.equals(key) && !name.startsWith(key + ".staging-")) {
          delete(d);
        }
      }
    }
  }

  private static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
