package io.freshet.schemas.topic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The provisioner's command line, short of a cluster: help, bad arguments, the environment. */
class TopicProvisionerCommandTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(Map<String, String> env, String... args) {
    return TopicProvisioner.run(
        args,
        env,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpShowsTheOptionsWithTheEnvironmentsValuesAsDefaults() {
    assertThat(run(Map.of("FRESHET_KAFKA_PARTITIONS", "6"), "--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("--bootstrap", "--replication-factor", "--min-insync-replicas")
        .contains("(default: 6, from FRESHET_KAFKA_PARTITIONS when set)")
        .contains("2   bad arguments");
  }

  @Test
  void badArgumentsAreOneLineAndExitTwo() {
    assertThat(run(Map.of(), "--partitons", "3")).isEqualTo(2);
    assertThat(err())
        .isEqualTo(
            "provision-topics: Unknown options: '--partitons', '3'; did you mean --partitions?"
                + " (provision-topics --help)"
                + System.lineSeparator());
    assertThat(run(Map.of(), "--partitions", "0")).isEqualTo(2);
    assertThat(err()).contains("partitions and replication factor must be at least 1");
    assertThat(run(Map.of("FRESHET_KAFKA_REPLICATION_FACTOR", "three"))).isEqualTo(2);
    assertThat(err())
        .contains("--replication-factor")
        .contains("'three'")
        .contains("(from FRESHET_KAFKA_REPLICATION_FACTOR)");
  }

  @Test
  void aTenantContentTopicNeedsATenantIdThatCanNameATopic() {
    assertThat(run(Map.of(), "--tenant-content-topics", "acme,a/b")).isEqualTo(2);
    assertThat(err())
        .contains("tenant-content-topics: 'a/b' is not a tenant id")
        .contains("(provision-topics --help)");
    assertThat(
            FreshetTopics.create(
                    io.freshet.schemas.serde.RegistrySettings.of("http://unused", false),
                    3,
                    java.util.List.of("acme", "globex.eu", "acme"))
                .all())
        .extracting(Topic::name)
        .endsWith("freshet.content.fetched.v1.acme", "freshet.content.fetched.v1.globex.eu")
        .doesNotHaveDuplicates();
  }
}
