package io.freshet.kit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class CommandLinesTest {

  @Command(
      name = "tool",
      subcommands = Run.class,
      exitCodeList = {"0:done", "2:bad input"})
  static final class Tool {}

  @Command(name = "run")
  static final class Run implements Callable<Integer> {
    @Option(names = "--target", required = true)
    String target;

    @Option(names = "--times", converter = CommandLines.AtLeastOne.class)
    int times = 1;

    @Option(
        names = {"-h", "--help"},
        usageHelp = true)
    boolean help;

    @Override
    public Integer call() {
      return 0;
    }
  }

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    err.reset();
    return CommandLines.create(
            new Tool(),
            "tool",
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8))
        .execute(args);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void badInputIsOneLineNamingTheHelpToReadAndExitsTwo() {
    assertThat(run("walk")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "tool: unknown command 'walk'; allowed: run (tool --help)" + System.lineSeparator());
    assertThat(run("run", "--taget", "x"))
        .as("misspelt, not reported as --target missing")
        .isEqualTo(2);
    assertThat(err()).startsWith("tool: Unknown options: '--taget', 'x'; did you mean --target?");
    assertThat(run("run", "--target", "x", "--times", "0")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "tool: --times: expected a whole number of at least 1, got '0' (tool run --help)"
                + System.lineSeparator());
    assertThat(run("run", "--target", "x")).isZero();
  }

  @Test
  void aSubcommandsHelpShowsTheExitCodes() {
    assertThat(run("run", "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("Exit codes:", "2   bad input");
  }
}
