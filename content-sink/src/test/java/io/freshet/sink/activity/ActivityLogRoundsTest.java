package io.freshet.sink.activity;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ActivityLogRoundsTest {

  private static final Instant T = Instant.parse("2026-11-01T00:00:00Z");

  private static FetchOutcome outcome(String request, String source) {
    return new FetchOutcome(
        request, source, "t", 1, "ok", 200, null, null, 1, T, T, 0, 0, List.of(), 0, null);
  }

  private static List<List<String>> requests(List<List<FetchOutcome>> rounds) {
    return rounds.stream().map(r -> r.stream().map(FetchOutcome::requestId).toList()).toList();
  }

  @Test
  void aPollOfDistinctSourcesAndRequestsIsOneStatementInItsOrder() {
    var rounds =
        ActivityLog.rounds(List.of(outcome("r1", "a"), outcome("r2", "b"), outcome("r3", "c")));
    assertThat(requests(rounds)).containsExactly(List.of("r1", "r2", "r3"));
  }

  @Test
  void nothingToRecordIsNoStatement() {
    assertThat(ActivityLog.rounds(List.of())).isEmpty();
  }

  @Test
  void aSourcesLaterOutcomesGoToLaterStatementsInOrder() {
    var rounds =
        ActivityLog.rounds(
            List.of(
                outcome("r1", "a"),
                outcome("r2", "a"),
                outcome("r3", "b"),
                outcome("r4", "a"),
                outcome("r5", "c")));
    assertThat(requests(rounds))
        .containsExactly(List.of("r1", "r3", "r5"), List.of("r2"), List.of("r4"));
  }

  @Test
  void aRepeatedRequestGoesToALaterStatementEvenUnderAnotherSource() {
    var rounds =
        ActivityLog.rounds(List.of(outcome("r1", "a"), outcome("r2", "b"), outcome("r1", "c")));
    assertThat(requests(rounds)).containsExactly(List.of("r1", "r2"), List.of("r1"));
  }

  @Test
  void anOutcomeFollowsTheLatestRoundOfItsSourceOrOfItsRequest() {
    // r9 of b comes after the round of b's r3 (1), though its request was last in round 0.
    var rounds =
        ActivityLog.rounds(
            List.of(
                outcome("r9", "x"), outcome("r2", "b"), outcome("r3", "b"), outcome("r9", "b")));
    assertThat(requests(rounds)).containsExactly(List.of("r9", "r2"), List.of("r3"), List.of("r9"));
  }

  @Test
  void microsecondsRoundToTheNearestAsTheDriverDid() {
    assertThat(ActivityLog.micros(Instant.ofEpochSecond(1, 1_499))).isEqualTo(1_000_001L);
    assertThat(ActivityLog.micros(Instant.ofEpochSecond(1, 1_500))).isEqualTo(1_000_002L);
    assertThat(ActivityLog.micros(Instant.ofEpochMilli(-1))).isEqualTo(-1_000L);
  }
}
