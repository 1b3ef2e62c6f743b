package io.freshet.cadence.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CandidateTest {

  @TempDir Path dir;

  @Test
  void readsNamedConfigurationsWithOptionalScaleAndBudget() throws Exception {
    Path f = dir.resolve("c.json");
    Files.writeString(
        f,
        "[{\"name\":\"a\",\"policy\":\"fixed\",\"scale\":2},"
            + "{\"name\":\"b\",\"policy\":\"adaptive\",\"budget_per_hour\":50}]");
    assertThat(Candidate.read(f))
        .containsExactly(
            new Candidate("a", "fixed", 2.0, null), new Candidate("b", "adaptive", 1.0, 50.0));
  }

  @Test
  void namesTheEntryAndFieldThatIsWrong() throws Exception {
    Path f = dir.resolve("c.json");
    Files.writeString(f, "[{\"name\":\"a\",\"policy\":\"sometimes\"}]");
    assertThatThrownBy(() -> Candidate.read(f))
        .hasMessageContaining("entry 0")
        .hasMessageContaining("policy 'sometimes'");
    Files.writeString(f, "[{\"name\":\"a\",\"policy\":\"fixed\",\"every\":3}]");
    assertThatThrownBy(() -> Candidate.read(f)).hasMessageContaining("unknown field 'every'");
    Files.writeString(f, "[{\"name\":\"current\",\"policy\":\"fixed\"}]");
    assertThatThrownBy(() -> Candidate.read(f)).hasMessageContaining("used twice");
    Files.writeString(f, "{");
    assertThatThrownBy(() -> Candidate.read(f)).hasMessageContaining("not JSON");
  }
}
