package io.freshet.cadence.budget;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StarvationCeilingTest {

  private static final Duration MIN = Duration.ofMinutes(5);
  private static final Duration MAX = Duration.ofDays(7);

  @Test
  void isFourEvenShares() {
    // 100 sources, 10 fetches an hour: an even share is every 10 h, the ceiling 40 h
    assertThat(StarvationCeiling.interval(100, 10, MIN, MAX)).isEqualTo(Duration.ofHours(40));
  }

  @Test
  void neverAboveTheSpecsMaximumNorBelowItsMinimum() {
    assertThat(StarvationCeiling.interval(100_000, 1, MIN, MAX)).isEqualTo(MAX);
    assertThat(StarvationCeiling.interval(1, 10_000, MIN, MAX)).isEqualTo(MIN);
  }

  @Test
  void withoutABudgetTheMaximum() {
    assertThat(StarvationCeiling.interval(0, 10, MIN, MAX)).isEqualTo(MAX);
    assertThat(StarvationCeiling.interval(10, 0, MIN, MAX)).isEqualTo(MAX);
  }
}
