package io.freshet.stack.launcher;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The JVM options of the stack's processes, and an operator's override of them: the variable {@code
 * FRESHET_<PROCESS>_JVM_OPTIONS} (e.g. {@code FRESHET_FETCH_WORKER_JVM_OPTIONS}, {@code
 * FRESHET_KAFKA_JVM_OPTIONS}), whitespace-separated, replaces the launcher's whole list for that
 * process. It must replace, not add: a later command-line flag wins over an earlier one, and the
 * command line over {@code JAVA_TOOL_OPTIONS}.
 */
public final class JvmOptions {

  /**
   * Full tiered compilation (C2): the steady benchmark's CPU per fetch fell 25 % for the worker,
   * 8-18 % for the scheduler, the sink and the push receiver against C1 only, for 60-120 MiB more
   * resident each (docs/benchmarks/local-stack.md, "JVM options").
   */
  public static final List<String> TIERED = List.of("-Xmx384m", "-XX:+UseSerialGC");

  /**
   * C1 only ({@code TieredStopAtLevel=1}): a JVM comes up sooner on two cores and stays smaller;
   * the stats aggregator's CPU per fetch did not fall with C2 (its work is RocksDB's, native), and
   * short-lived tests start services so.
   */
  public static final List<String> C1_ONLY =
      List.of("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  /** The standalone broker's (full tiered compilation: it is the one long-lived hot loop). */
  public static final List<String> KAFKA = List.of("-Xmx512m", "-XX:+UseSerialGC");

  /** The schema registry's (Quarkus; read at start-up, then seldom): C1 only. */
  public static final List<String> REGISTRY = C1_ONLY;

  /**
   * A service's options unless overridden: {@link #TIERED}, the stats aggregator {@link #C1_ONLY}.
   */
  public static List<String> service(String module) {
    return module.equals("stats-aggregator") ? C1_ONLY : TIERED;
  }

  private JvmOptions() {}

  /** The override variable of {@code process} (a module name or kafka, registry). */
  public static String variable(String process) {
    return "FRESHET_" + process.toUpperCase(Locale.ROOT).replace('-', '_') + "_JVM_OPTIONS";
  }

  /**
   * {@code process}'s options: its variable in {@code env} if set and not blank, split on
   * whitespace, else {@code defaults}.
   */
  public static List<String> of(String process, List<String> defaults, Map<String, String> env) {
    String value = env.get(variable(process));
    if (value == null || value.isBlank()) {
      return defaults;
    }
    return Arrays.stream(value.strip().split("\\s+")).toList();
  }
}
