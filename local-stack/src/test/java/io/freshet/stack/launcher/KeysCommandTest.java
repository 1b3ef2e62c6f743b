package io.freshet.stack.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code ./freshet keys}: its help and its refusals, without a running stack. */
class KeysCommandTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream stdout;
  private PrintStream stderr;

  @BeforeEach
  void capture() {
    stdout = System.out;
    stderr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restore() {
    System.setOut(stdout);
    System.setErr(stderr);
  }

  @Test
  void createsHelpNamesItsOptionsAndExitCodes() {
    assertThat(LocalStack.run(new String[] {"keys", "create", "--help"})).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("--tenant")
        .contains("--role")
        .contains("--expires-at")
        .contains("shown this once")
        .contains("Exit codes:");
  }

  @Test
  void aRoleOtherThanReadOrWriteIsBadInput() {
    assertThat(
            LocalStack.run(new String[] {"keys", "create", "--tenant", "demo", "--role", "admin"}))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--role").contains("read, write");
  }

  @Test
  void aMissingTenantIsBadInput() {
    assertThat(LocalStack.run(new String[] {"keys", "create", "--role", "read"})).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--tenant");
  }
}
