package io.freshet.push.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link SourceFacts#runs}: a poll's outcomes become statements whose rows are distinct sources (an
 * upsert changes a row once per statement), each source's outcomes in their order, and the
 * statements' rows, one after another, in source id order (the order the locks are taken in).
 */
class SourceFactsRunsTest {

  private static SourceFacts.Completed at(String source, int second) {
    return SourceFacts.Completed.notModified(source, Instant.ofEpochSecond(second));
  }

  private static List<String> names(List<SourceFacts.Completed> run) {
    return run.stream().map(c -> c.sourceId() + "@" + c.at().getEpochSecond()).toList();
  }

  @Test
  void aPollWithoutRepeatsIsOneStatementInSourceIdOrder() {
    assertThat(
            SourceFacts.runs(List.of(at("c", 1), at("a", 2), at("b", 3))).stream()
                .map(r -> names(r)))
        .containsExactly(List.of("a@2", "b@3", "c@1"));
  }

  @Test
  void aRepeatStartsTheNextStatementAndKeepsItsSourcesOrder() {
    var poll = List.of(at("b", 1), at("a", 2), at("c", 3), at("a", 4), at("b", 5), at("a", 6));
    assertThat(SourceFacts.runs(poll).stream().map(r -> names(r)))
        .containsExactly(
            List.of("a@2"), List.of("a@4"), List.of("a@6", "b@1"), List.of("b@5", "c@3"));
  }

  @Test
  void noOutcomesNoStatement() {
    assertThat(SourceFacts.runs(List.of())).isEmpty();
  }
}
