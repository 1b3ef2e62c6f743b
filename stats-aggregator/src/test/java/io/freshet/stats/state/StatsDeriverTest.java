package io.freshet.stats.state;

import static io.freshet.stats.testing.Outcomes.added;
import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.published;
import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.SourceStats;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure core, without Kafka: the README's worked examples. */
class StatsDeriverTest {

  static final Instant T = Instant.parse("2026-11-01T00:00:00Z");

  @Test
  void aNewSourceHasEmptyStatsAndNoChangeRateEstimateYet() {
    var updater = new StatsUpdater(StatsSettings.defaults(), Clock.systemUTC());
    SourceStats stats = new StatsDeriver(updater).derive("s", updater.initial());
    assertThat(stats.getWindowFetches()).isZero();
    assertThat(stats.getAvgSignalYield()).isZero();
    assertThat(stats.getChangeRate())
        .as("0 = no estimate: the scheduler uses its own per-category prior, not ours")
        .isZero();
    assertThat(stats.getMedianDaysToEvent()).isNull();
  }

  @Test
  void aFetchReportedFromTheFutureIsTakenAsNow() {
    Instant now = T.plusSeconds(60);
    var updater = new StatsUpdater(StatsSettings.defaults(), Clock.fixed(now, ZoneOffset.UTC));
    SourceState state = updater.initial();
    updater.apply(
        state,
        outcome("s", T.plusSeconds(86_400))
            .items(published("p", ItemNovelty.added, T.plusSeconds(3_600)))
            .build());
    SourceStats stats = new StatsDeriver(updater).derive("s", state);
    assertThat(stats.getUpdatedAt()).isEqualTo(now);
    assertThat(stats.getRecentPublishedAt()).isEmpty(); // published after "now": malformed
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertThat(StatsDeriver.median(List.of(9.0, 1.0, 10.0, 2.0))).isEqualTo(5.5);
    assertThat(StatsDeriver.median(List.of(3.0))).isEqualTo(3.0);
    assertThat(StatsDeriver.median(List.of())).isNull();
  }

  @Test
  void theReadmeWorkedExampleOfYield() {
    var updater = new StatsUpdater(StatsSettings.defaults(), Clock.systemUTC());
    SourceState state = updater.initial();
    updater.apply(state, outcome("s", T).items(added("a"), added("b"), added("c")).build());
    updater.apply(state, outcome("s", T.plusSeconds(3600)).items(added("c"), added("d")).build());
    updater.apply(state, outcome("s", T.plusSeconds(7200)).build());
    SourceStats stats = new StatsDeriver(updater).derive("s", state);
    assertThat(stats.getAvgSignalYield()).isEqualTo(4.0 / 3); // 3 + 1 + 0 over 3 fetches
    assertThat(stats.getConsecutiveEmpty()).isEqualTo(1);
  }

  @Test
  void afterARollbackToTheTrackerAStateDerivedWithThePosteriorShowsTheTrackersRate() {
    Instant now = Instant.parse("2026-11-01T12:00:00Z");
    StatsSettings tracker = StatsSettings.defaults().withEstimator(StatsSettings.Estimator.TRACKER);
    var posterior = new StatsUpdater(StatsSettings.defaults(), Clock.fixed(now, ZoneOffset.UTC));
    SourceState state = posterior.initial();
    posterior.apply(
        state,
        outcome("s", now).items(published("p", ItemNovelty.added, now.minusSeconds(7200))).build());
    new RatePopulation(posterior).learn(state);
    assertThat(state.changeRate()).isPositive();
    assertThat(new StatsDeriver(posterior).derive("s", state).getChangeRate())
        .isEqualTo(state.changeRate());
    // the state still holds the posterior's rate; the tracker setting does not show it
    var rolledBack = new StatsUpdater(tracker, Clock.fixed(now, ZoneOffset.UTC));
    double trackers = rolledBack.tracker(state).rate(now.getEpochSecond());
    assertThat(trackers).isNotEqualTo(state.changeRate());
    assertThat(new StatsDeriver(rolledBack).derive("s", state).getChangeRate()).isEqualTo(trackers);
  }
}
