package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateTrackerSnapshotTest {

  private static final double WINDOW_HOURS = 14 * 24;
  private static final double PRIOR = 1.0 / 24;

  @Test
  void aRestoredItemTrackerEstimatesExactlyAsTheOriginalAndKeepsLearningAlike() {
    RateTracker original = new RateTracker(WINDOW_HOURS, PRIOR);
    original.observeItems(3_600, 2, 0);
    original.observeItems(7_200, 5, 3_600);

    RateTracker restored = RateTracker.restore(WINDOW_HOURS, PRIOR, original.snapshot());
    assertThat(restored.rate(10_000)).isEqualTo(original.rate(10_000));

    original.observeItems(90_000, 1, 7_200);
    restored.observeItems(90_000, 1, 7_200);
    assertThat(restored.rate(100_000)).isEqualTo(original.rate(100_000));
    assertThat(restored.hasEvidence()).isTrue();
  }

  @Test
  void aRestoredPageTrackerKeepsTheNewestObservationsInOrderPastItsCapacity() {
    RateTracker original = new RateTracker(WINDOW_HOURS, PRIOR);
    long t = 0;
    for (int i = 0; i < 40; i++) {
      original.observeChange(t + 3_600, t, i % 3 == 0);
      t += 3_600;
    }
    RateTracker.Snapshot snapshot = original.snapshot();
    assertThat(snapshot.intervals()).hasSize(32);
    assertThat(snapshot.observedAt()[0]).isLessThan(snapshot.observedAt()[31]);

    RateTracker restored = RateTracker.restore(WINDOW_HOURS, PRIOR, snapshot);
    assertThat(restored.rate(t)).isEqualTo(original.rate(t));
  }

  @Test
  void aFreshTrackerSnapshotRestoresToNoEvidence() {
    RateTracker restored =
        RateTracker.restore(WINDOW_HOURS, PRIOR, new RateTracker(WINDOW_HOURS, PRIOR).snapshot());
    assertThat(restored.hasEvidence()).isFalse();
    assertThat(restored.rate(1_000)).isEqualTo(PRIOR);
  }
}
