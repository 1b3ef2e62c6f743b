package io.freshet.schemas.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class SchemaRegistrarTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @Test
  void unknownArgumentExitsWith2AndSaysWhich() {
    int code = run("--registry", "http://x");

    assertThat(code).isEqualTo(2);
    assertThat(err())
        .contains("Unknown options: '--registry', 'http://x'; did you mean --registry-url?")
        .contains("(register-schemas --help)");
  }

  @Test
  void unreachableRegistryExitsWith1NamingTheSubjectAndUrl() {
    int code = run("--registry-url", "http://127.0.0.1:1/apis/ccompat/v7");

    assertThat(code).isEqualTo(1);
    assertThat(err())
        .contains("freshet.fetch.requested.v1-value")
        .contains("cannot reach registry at http://127.0.0.1:1/apis/ccompat/v7");
  }

  @Test
  void subjectsFollowTheTopicNameStrategy() {
    assertThat(EventSchemas.ALL)
        .extracting(EventSchemas::subject)
        .containsExactly(
            "freshet.fetch.requested.v1-value",
            "freshet.content.fetched.v1-value",
            "freshet.fetch.completed.v1-value",
            "freshet.source.stats.v1-value",
            "freshet.push.received.v1-value",
            "freshet.api.keys.v1-value");
  }

  private int run(String... args) {
    return SchemaRegistrar.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }
}
