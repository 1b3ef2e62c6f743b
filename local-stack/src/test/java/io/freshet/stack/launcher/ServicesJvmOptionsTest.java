package io.freshet.stack.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ServicesJvmOptionsTest {

  private final Services services = new Services(null, "java").withLauncherEnv(Map.of());

  @Test
  void theDefaultsUnlessOverridden() {
    assertThat(services.jvmOptions("fetch-worker")).containsExactly("-Xmx384m", "-XX:+UseSerialGC");
    assertThat(services.jvmOptions("stats-aggregator"))
        .containsExactly("-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");
  }

  @Test
  void theLauncherEnvironmentReplacesOneModulesList() {
    services.withLauncherEnv(
        Map.of("FRESHET_FETCH_WORKER_JVM_OPTIONS", "  -Xmx256m   -XX:+UseSerialGC "));

    assertThat(services.jvmOptions("fetch-worker")).containsExactly("-Xmx256m", "-XX:+UseSerialGC");
    assertThat(services.jvmOptions("content-sink")).isEqualTo(JvmOptions.TIERED);
  }

  @Test
  void aModulesOwnVariablesWinOverTheLaunchersAndABlankOneMeansTheDefaults() {
    services.withLauncherEnv(Map.of("FRESHET_SCHEDULER_PRODUCER_JVM_OPTIONS", "-Xmx1g"));
    services.withEnv(
        "scheduler-producer", Map.of("FRESHET_SCHEDULER_PRODUCER_JVM_OPTIONS", "-Xmx2g"));
    assertThat(services.jvmOptions("scheduler-producer")).containsExactly("-Xmx2g");

    services.replaceEnv(
        "scheduler-producer", Map.of("FRESHET_SCHEDULER_PRODUCER_JVM_OPTIONS", " "));
    assertThat(services.jvmOptions("scheduler-producer")).isEqualTo(JvmOptions.TIERED);
  }

  @Test
  void withJvmOptionsChangesTheDefaultsOfEveryModuleNotOverridden() {
    services
        .withJvmOptions(List.of("-Xmx384m"))
        .withLauncherEnv(Map.of("FRESHET_STATS_AGGREGATOR_JVM_OPTIONS", "-Xmx512m"));

    assertThat(services.jvmOptions("push-receiver")).containsExactly("-Xmx384m");
    assertThat(services.jvmOptions("stats-aggregator")).containsExactly("-Xmx512m");
  }

  @Test
  void theVariableOfAProcess() {
    assertThat(JvmOptions.variable("kafka")).isEqualTo("FRESHET_KAFKA_JVM_OPTIONS");
    assertThat(JvmOptions.variable("stats-aggregator"))
        .isEqualTo("FRESHET_STATS_AGGREGATOR_JVM_OPTIONS");
  }
}
