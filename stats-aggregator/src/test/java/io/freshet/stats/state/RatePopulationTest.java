package io.freshet.stats.state;

import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.published;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Clock;
import java.time.Instant;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class RatePopulationTest {

  static final Instant T = Instant.parse("2026-11-01T00:00:00Z");
  final StatsUpdater updater = new StatsUpdater(StatsSettings.defaults(), Clock.systemUTC());

  /** A feed read {@code reads} times an hour apart, each read finding one new item. */
  private String feed(RatePopulation population, SourceState state, int reads) {
    String taught = null;
    for (int h = 0; h < reads; h++) {
      long before = state.lastSuccessAt();
      updater.apply(
          state,
          outcome("s", T.plusSeconds(3600L * h))
              .items(published("i" + h, ItemNovelty.added, T.plusSeconds(3600L * h - 600)))
              .build());
      taught = population.learn(state, before);
    }
    return taught;
  }

  @Test
  void aReadTeachesItsPopulationAndAFailureOrAFirstReadDoesNot() {
    RatePopulation population = new RatePopulation(updater);
    SourceState state = updater.initial();
    assertThat(feed(population, state, 1)).as("a first read: no stretch of time").isNull();
    assertThat(state.changeRate()).isPositive();
    assertThat(feed(population, state, 3)).isEqualTo(RatePopulation.ITEMS);
    long before = state.lastSuccessAt();
    updater.apply(state, outcome("s", T.plusSeconds(7 * 3600)).status(FetchStatus.failed).build());
    assertThat(population.learn(state, before)).isNull();
  }

  @Test
  void aStoredPriorReadsBackTheSame() {
    RatePopulation population = new RatePopulation(updater);
    feed(population, updater.initial(), 50);
    RatePopulation restarted = new RatePopulation(updater);
    restarted.read(RatePopulation.ITEMS, population.write(RatePopulation.ITEMS));
    assertThat(restarted.prior(true).weights()).containsExactly(population.prior(true).weights());
    restarted.read(RatePopulation.CHANGES, null);
    assertThat(restarted.prior(false).evidenceHours()).isZero();
  }

  @Test
  void unreadablePriorBytesAreASerializationError() {
    RatePopulation population = new RatePopulation(updater);
    assertThatThrownBy(() -> population.read(RatePopulation.ITEMS, new byte[] {9, 0}))
        .isInstanceOf(SerializationException.class);
    byte[] truncated = java.util.Arrays.copyOf(population.write(RatePopulation.ITEMS), 20);
    assertThatThrownBy(() -> population.read(RatePopulation.ITEMS, truncated))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("items");
  }
}
