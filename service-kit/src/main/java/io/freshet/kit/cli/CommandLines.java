package io.freshet.kit.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What the services' command lines share ({@code ./freshet}'s launcher, {@code dlq}, the
 * fetch-worker's {@code fetch}), in the style of cadence-replay: help 100 columns wide, with the
 * exit codes in every command's help; bad input one line on stderr, {@code <prefix>: <problem>
 * (<command> --help)}, exit code 2.
 */
public final class CommandLines {

  private CommandLines() {}

  /** The {@code -h}/{@code --help} option every command has: {@code @Mixin CommandLines.Help}. */
  public static final class Help {
    @picocli.CommandLine.Option(
        names = {"-h", "--help"},
        usageHelp = true,
        description = "this help")
    boolean help;
  }

  /**
   * picocli set up for {@code command} (annotated with {@code @Command}): help to {@code out},
   * messages to {@code err}, a subcommand's help showing the exit codes of {@code command} unless
   * it has its own, bad input as one line prefixed with {@code prefix}.
   */
  public static CommandLine create(
      Object command, String prefix, PrintStream out, PrintStream err) {
    CommandLine cli = new CommandLine(command);
    cli.setUsageHelpWidth(100);
    var exitCodes = cli.getCommandSpec().usageMessage().exitCodeList();
    for (CommandLine sub : cli.getSubcommands().values()) {
      var usage = sub.getCommandSpec().usageMessage();
      if (usage.exitCodeList().isEmpty()) {
        usage.exitCodeListHeading("%nExit codes:%n").exitCodeList(exitCodes);
      }
    }
    cli.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
    cli.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
    cli.setParameterExceptionHandler(
        (e, args) -> {
          err.println(
              prefix
                  + ": "
                  + problem(e)
                  + " ("
                  + e.getCommandLine().getCommandSpec().qualifiedName()
                  + " --help)");
          return 2;
        });
    return cli;
  }

  /**
   * picocli's message on one line. A misspelt option or command is reported as such (picocli checks
   * the required arguments first), with what may have been meant; a value a converter refused as
   * {@code --option: why}.
   */
  static String problem(ParameterException e) {
    CommandLine c = e.getCommandLine();
    var parsed = c.getParseResult();
    if (!(e instanceof UnmatchedArgumentException)
        && parsed != null
        && !parsed.unmatched().isEmpty()) {
      e = new UnmatchedArgumentException(c, parsed.unmatched());
    }
    if (e instanceof UnmatchedArgumentException u) {
      if (!c.getSubcommands().isEmpty()
          && !u.getUnmatched().isEmpty()
          && !u.getUnmatched().getFirst().startsWith("-")) {
        return "unknown command '"
            + u.getUnmatched().getFirst()
            + "'; allowed: "
            + String.join(", ", c.getSubcommands().keySet());
      }
      String m = oneLine(e.getMessage());
      return u.getSuggestions().isEmpty()
          ? m
          : m + "; did you mean " + String.join(" or ", u.getSuggestions()) + "?";
    }
    if (e.getCause() instanceof TypeConversionException t
        && e.getArgSpec() instanceof OptionSpec o) {
      return o.longestName() + ": " + t.getMessage();
    }
    return oneLine(e.getMessage());
  }

  private static String oneLine(String message) {
    return message.replace(System.lineSeparator(), " ").replace('\n', ' ').trim();
  }

  /** A whole number of at least 1. */
  public static final class AtLeastOne implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      try {
        int n = Integer.parseInt(value);
        if (n >= 1) {
          return n;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new TypeConversionException(
          "expected a whole number of at least 1, got '" + value + "'");
    }
  }
}
