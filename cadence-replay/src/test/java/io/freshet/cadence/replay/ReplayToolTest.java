package io.freshet.cadence.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line without a broker: help, bad input, the time arguments. */
class ReplayToolTest {

  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  static Run run(String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    int code =
        ReplayTool.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void helpListsEveryOptionAndTheExitCodes() {
    Run r = run("--help");
    assertThat(r.code()).isZero();
    assertThat(r.out())
        .startsWith("Usage: replay")
        .contains("--from=TIME", "--time-scale=X", "--configs=FILE", "Exit codes:")
        .contains("2   bad input");
    assertThat(r.err()).isEmpty();
    assertThat(run("replay", "-h").out()).isEqualTo(r.out()); // the old `replay ARGS` form
  }

  @Test
  void badInputIsOneLineOnStderrAndExitCodeTwo() {
    Run noArgs = run();
    assertThat(noArgs.code()).isEqualTo(2);
    assertThat(noArgs.err()).startsWith("replay: Missing required options").hasLineCount(1);

    Run badTime = run("--bootstrap", "b", "--registry", "r", "--from", "yesterday");
    assertThat(badTime.code()).isEqualTo(2);
    assertThat(badTime.err())
        .contains("'yesterday' is neither an ISO-8601 instant")
        .hasLineCount(1);

    Run misspelt = run("--bootstrap", "b", "--registry", "r", "--form", "10m");
    assertThat(misspelt.err()).contains("Unknown option", "'--form'", "did you mean --from?");
    assertThat(misspelt.code()).isEqualTo(2);

    Run scale = run("--bootstrap", "b", "--registry", "r", "--from", "10m", "--time-scale", "-3");
    assertThat(scale.err())
        .isEqualTo("replay: --time-scale: expected a positive number, got -3.0\n");
    assertThat(scale.code()).isEqualTo(2);

    Run observe = run("--bootstrap", "b", "--registry", "r", "--from", "10m", "--observe", "x");
    assertThat(observe.err()).contains("expected one of [feed, page]").hasLineCount(1);
  }

  @Test
  void aMissingConfigsFileIsNamedBeforeAnythingIsRead() {
    Path missing = dir.resolve("candidates.json");
    Run r =
        run(
            "--bootstrap",
            "127.0.0.1:1",
            "--registry",
            "http://127.0.0.1:1",
            "--from",
            "10m",
            "--configs",
            missing.toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("replay: --configs " + missing + ": no such file\n");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void timesAreInstantsOrSpansBackFromTheEndOfTheRecording() {
    Instant end = Instant.parse("2026-11-24T12:00:00Z");
    assertThat(TimeArg.parse("10m").resolve(end)).isEqualTo(end.minusSeconds(600));
    assertThat(TimeArg.parse("1.5h").resolve(end)).isEqualTo(end.minus(Duration.ofMinutes(90)));
    assertThat(TimeArg.parse("3d").resolve(end)).isEqualTo(end.minus(Duration.ofDays(3)));
    assertThat(TimeArg.parse("PT45S").resolve(end)).isEqualTo(end.minusSeconds(45));
    assertThat(TimeArg.parse("2026-11-01T01:00:00+01:00").resolve(end))
        .isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
    assertThat(TimeArg.parse("2026-11-01T00:00:00Z").relative()).isFalse();
    assertThatThrownBy(() -> TimeArg.parse("0m")).hasMessageContaining("positive");
    assertThatThrownBy(() -> TimeArg.parse("soon")).hasMessageContaining("'soon' is neither");
  }

  @Test
  void aScaledRecordingIsMappedOntoItsSimulatedTimeline() {
    Instant wall = Instant.parse("2026-11-24T12:00:00Z");
    Instant model = Instant.parse("2025-02-18T00:00:00Z");
    Timeline t = new Timeline(1440, wall, model);
    assertThat(t.toModel(wall.plusSeconds(60))).isEqualTo(model.plus(Duration.ofDays(1)));
    assertThat(t.toModel(wall.minusMillis(2500))).isEqualTo(model.minus(Duration.ofHours(1)));
    assertThat(t.modelHours(wall, wall.plus(Duration.ofMinutes(10)))).isEqualTo(240.0);
    assertThat(t.isReal()).isFalse();
    assertThat(Timeline.real().toModel(wall)).isEqualTo(wall);
  }
}
