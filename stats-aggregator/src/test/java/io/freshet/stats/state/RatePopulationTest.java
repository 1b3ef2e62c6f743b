package io.freshet.stats.state;

import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.published;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Clock;
import java.time.Instant;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class RatePopulationTest {

  static final Instant T = Instant.parse("2026-11-01T00:00:00Z");
  // a clock after every outcome: the updater takes a finish time after its clock for now
  final StatsUpdater updater =
      new StatsUpdater(
          StatsSettings.defaults(),
          Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), java.time.ZoneOffset.UTC));

  /**
   * A feed read hourly from hour {@code from} for {@code reads} reads, each read finding one new
   * item; the store keys the reads made dirty.
   */
  private java.util.Set<String> feed(
      RatePopulation population, SourceState state, int from, int reads) {
    java.util.Set<String> taught = new java.util.HashSet<>();
    for (int h = from; h < from + reads; h++) {
      updater.apply(
          state,
          outcome("s", T.plusSeconds(3600L * h))
              .items(published("i" + h, ItemNovelty.added, T.plusSeconds(3600L * h - 600)))
              .build());
      population.learn(state);
      taught.addAll(population.takeDirty().keySet());
    }
    return taught;
  }

  @Test
  void aReadTeachesItsPopulationAndAFailureOrAFirstReadDoesNot() {
    RatePopulation population = new RatePopulation(updater);
    SourceState state = updater.initial();
    assertThat(feed(population, state, 0, 1))
        .as("a first read: no stretch of time for the prior; the hazards' first refresh")
        .containsExactlyInAnyOrder(RatePopulation.HAZARD_ITEMS, RatePopulation.HAZARD_CHANGES);
    assertThat(state.changeRate()).isPositive();
    assertThat(feed(population, state, 1, 2))
        .containsExactlyInAnyOrder(RatePopulation.ITEMS, RatePopulation.HAZARD_ITEMS);
    updater.apply(state, outcome("s", T.plusSeconds(7 * 3600)).status(FetchStatus.failed).build());
    population.learn(state);
    assertThat(population.takeDirty()).isEmpty();
  }

  @Test
  void aPopulationRestoredFromWhatItStoredAfterAnyReadGoesOnExactlyAsTheOriginal() {
    RatePopulation original = new RatePopulation(updater);
    java.util.Map<String, byte[]> store = new java.util.HashMap<>();
    SourceState[] sources = {updater.initial(), updater.initial(), updater.initial()};
    RatePopulation restored = null;
    SourceState[] restoredSources = null;
    SourceStateSerde serde = new SourceStateSerde();
    for (int h = 0; h < 200; h++) {
      for (int s = 0; s < sources.length; s++) {
        var o = outcome("s" + s, T.plusSeconds(3600L * h + s));
        if (h % (s + 2) == 0) {
          o.items(
              published("seen" + s, ItemNovelty.seen, T.minusSeconds(86_400)),
              published("i" + s + "-" + h, ItemNovelty.added, T.plusSeconds(3600L * h - 900)));
        } else {
          o.status(FetchStatus.not_modified);
        }
        FetchCompleted outcome = o.build();
        updater.apply(sources[s], outcome);
        original.learn(sources[s]);
        store.putAll(original.takeDirty());
        if (restored != null) {
          updater.apply(restoredSources[s], outcome);
          restored.learn(restoredSources[s]);
          restored.takeDirty();
          assertThat(restoredSources[s].changeRate()).isEqualTo(sources[s].changeRate());
        }
      }
      if (h == 120) { // a crash: a new task from the store and the states as stored
        restored = new RatePopulation(updater);
        for (String key : RatePopulation.KEYS) {
          restored.read(key, store.get(key));
        }
        restoredSources = new SourceState[sources.length];
        for (int s = 0; s < sources.length; s++) {
          restoredSources[s] = SourceStateSerde.read(SourceStateSerde.write(sources[s]));
        }
      }
    }
    assertThat(restored.hazard(true).curve(0.2)).containsExactly(original.hazard(true).curve(0.2));
  }

  @Test
  void aPopulationThatPublishesInBurstsRaisesTheRateRightAfterAnItemAndLowersItInSilence() {
    RatePopulation population = new RatePopulation(updater);
    SourceState[] feeds = new SourceState[30];
    for (int f = 0; f < feeds.length; f++) {
      feeds[f] = updater.initial();
    }
    // 30 days, read hourly; each feed publishes a burst of three items (ten minutes apart) every
    // two days, at its own hour
    int n = 0;
    for (int h = 0; h < 30 * 24; h++) {
      for (int f = 0; f < feeds.length; f++) {
        var o = outcome("f" + f, T.plusSeconds(3600L * h));
        if (h == 0) {
          o.items(published("old" + f, ItemNovelty.added, T.minusSeconds(86_400)));
        } else if ((h + f) % 48 == 0) {
          long at = 3600L * h - 1800;
          o.items(
              // the feed still lists an item the previous read saw: its list reaches back
              published("old" + f, ItemNovelty.seen, T.minusSeconds(86_400)),
              published("b" + n++, ItemNovelty.added, T.plusSeconds(at)),
              published("b" + n++, ItemNovelty.added, T.plusSeconds(at + 600)),
              published("b" + n++, ItemNovelty.added, T.plusSeconds(at + 1200)));
        } else {
          o.status(FetchStatus.not_modified);
        }
        updater.apply(feeds[f], o.build());
        population.learn(feeds[f]);
      }
    }
    SourceState justPublished = null;
    SourceState silent = null;
    int last = 30 * 24 - 1;
    for (int f = 0; f < feeds.length; f++) {
      int sinceBurst = Math.floorMod(last + f, 48); // reads since its last burst
      if (sinceBurst == 0) {
        justPublished = feeds[f];
      } else if (sinceBurst == 12) {
        silent = feeds[f];
      }
    }
    // three items every 48 h: right after a burst, more follow; 12 h into a silence, none do
    assertThat(justPublished.changeRate()).isGreaterThan(2 * justPublished.meanRate);
    assertThat(silent.changeRate()).isLessThan(silent.meanRate / 2);
  }

  @Test
  void aStoredPriorAndHazardReadBackTheSame() {
    RatePopulation population = new RatePopulation(updater);
    feed(population, updater.initial(), 0, 50);
    RatePopulation restarted = new RatePopulation(updater);
    restarted.read(RatePopulation.ITEMS, population.write(RatePopulation.ITEMS));
    assertThat(restarted.prior(true).weights()).containsExactly(population.prior(true).weights());
    restarted.read(RatePopulation.HAZARD_ITEMS, population.write(RatePopulation.HAZARD_ITEMS));
    for (double age : new double[] {0.2, 2, 20, 200}) {
      assertThat(restarted.hazard(true).multiplier(age, 0.5))
          .isEqualTo(population.hazard(true).multiplier(age, 0.5));
    }
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
