package io.freshet.cadence.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.cadence.budget.BudgetPlan;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FeedFrequencyPolicyTest {

  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private final FeedFrequencyPolicy policy = new FeedFrequencyPolicy(Duration.ofMinutes(60));

  private static List<Instant> every(Duration gap, int n) {
    List<Instant> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(NOW.minus(gap.multipliedBy(i)));
    }
    return out;
  }

  private Duration interval(List<Instant> dates) {
    return policy.interval(SourceSnapshot.builder().recentPublishedAt(dates).build(), NOW);
  }

  @Test
  void meanGapOfTheLastTenItems() {
    assertThat(interval(every(Duration.ofHours(2), 10))).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void onlyTheLastTenItemsCount() {
    List<Instant> dates = new ArrayList<>(every(Duration.ofHours(1), 10));
    dates.add(NOW.minus(Duration.ofDays(30))); // 11th, much older: ignored
    assertThat(interval(dates)).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void orderOfDatesDoesNotMatter() {
    List<Instant> dates = new ArrayList<>(every(Duration.ofHours(3), 5));
    java.util.Collections.reverse(dates);
    assertThat(interval(dates)).isEqualTo(Duration.ofHours(3));
  }

  @Test
  void clampedToFifteenMinutes() {
    assertThat(interval(every(Duration.ofMinutes(1), 10))).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void clampedToTwentyFourHours() {
    assertThat(interval(every(Duration.ofDays(3), 10))).isEqualTo(Duration.ofHours(24));
  }

  @Test
  void fewerThanTwoDatesFallBackToTheDefault() {
    assertThat(interval(List.of())).isEqualTo(Duration.ofMinutes(60));
    assertThat(interval(List.of(NOW.minusSeconds(60)))).isEqualTo(Duration.ofMinutes(60));
  }

  @Test
  void malformedFutureDatesAreUnusable() {
    List<Instant> dates = List.of(NOW.minusSeconds(600), NOW.plus(Duration.ofDays(400)));
    assertThat(interval(dates)).isEqualTo(Duration.ofMinutes(60));
  }

  @Test
  void statsPublishIntervalIsUsedWhenNoDatesAreCarried() {
    SourceSnapshot s = SourceSnapshot.builder().publishIntervalAvg(Duration.ofHours(5)).build();
    assertThat(policy.interval(s, NOW)).isEqualTo(Duration.ofHours(5));
  }

  @Test
  void appliesAfterSuccessAndNotModifiedAlike() {
    SourceSnapshot s =
        SourceSnapshot.builder().recentPublishedAt(every(Duration.ofHours(2), 4)).build();
    assertThat(policy.nextDue(s, NOW, NOW, BudgetPlan.NONE))
        .isEqualTo(NOW.plus(Duration.ofHours(2)));
  }

  @Test
  void failuresBackOffUpToTheDailyCeiling() {
    SourceSnapshot s =
        SourceSnapshot.builder()
            .recentPublishedAt(every(Duration.ofHours(2), 4))
            .consecutiveMisses(2)
            .build();
    assertThat(policy.nextDue(s, NOW, NOW, BudgetPlan.NONE))
        .isEqualTo(NOW.plus(Duration.ofHours(8)));
    s = s.toBuilder().consecutiveMisses(5).build();
    assertThat(policy.nextDue(s, NOW, NOW, BudgetPlan.NONE))
        .isEqualTo(NOW.plus(Duration.ofHours(24)));
  }
}
