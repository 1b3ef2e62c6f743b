package io.freshet.stats.topology;

import static io.freshet.stats.testing.Outcomes.added;
import static io.freshet.stats.testing.Outcomes.item;
import static io.freshet.stats.testing.Outcomes.outcome;
import static io.freshet.stats.testing.Outcomes.published;
import static io.freshet.stats.testing.Outcomes.seen;
import static io.freshet.stats.testing.Outcomes.typed;
import static io.freshet.stats.testing.Outcomes.withEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.topic.FreshetTopics;
import io.freshet.schemas.topic.Topic;
import io.freshet.stats.state.RatePopulation;
import io.freshet.stats.state.SourceState;
import io.freshet.stats.state.StatsSettings;
import io.freshet.stats.state.StatsUpdater;
import io.freshet.stats.testing.AvroBinarySerde;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The definitions of the module README, through the production topology. */
class SourceStatsTopologyTest {

  static final Instant T = Instant.parse("2026-11-01T00:00:00Z");
  static final Topic<String, FetchCompleted> COMPLETED =
      new Topic<>(
          FreshetTopics.FETCH_COMPLETED,
          Serdes.String(),
          new AvroBinarySerde<>(FetchCompleted.class),
          1,
          Map.of());
  static final Topic<String, SourceStats> STATS =
      new Topic<>(
          FreshetTopics.SOURCE_STATS,
          Serdes.String(),
          new AvroBinarySerde<>(SourceStats.class),
          1,
          Map.of());

  @TempDir Path stateDir;
  TopologyTestDriver driver;
  TestInputTopic<String, byte[]> in;
  TestOutputTopic<String, SourceStats> out;
  TestOutputTopic<String, byte[]> dlq;

  @BeforeEach
  void start() {
    start(StatsSettings.defaults());
  }

  void start(StatsSettings settings) {
    var updater =
        new StatsUpdater(
            settings, Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC));
    var props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "stats-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    driver =
        new TopologyTestDriver(
            SourceStatsTopology.build(COMPLETED, STATS, updater, "stats-test"), props);
    in =
        driver.createInputTopic(
            COMPLETED.name(), new StringSerializer(), new ByteArraySerializer());
    out =
        driver.createOutputTopic(
            STATS.name(), new StringDeserializer(), STATS.valueSerde().deserializer());
    dlq =
        driver.createOutputTopic(
            COMPLETED.dlqName("stats-test"), new StringDeserializer(), new ByteArrayDeserializer());
  }

  @AfterEach
  void stop() {
    driver.close();
  }

  void send(FetchCompleted outcome) {
    in.pipeInput(
        outcome.getSourceId(),
        COMPLETED.valueSerde().serializer().serialize(COMPLETED.name(), outcome));
  }

  SourceStats last() {
    List<SourceStats> all = out.readValuesToList();
    assertThat(all).as("stats emitted").isNotEmpty();
    return all.getLast();
  }

  static Instant hours(double h) {
    return T.plusSeconds((long) (h * 3600));
  }

  @Test
  void givenAnOutcomeOfATenantsSource_whenFetched_thenTheStatsCarryTheTenant() {
    send(outcome("s", hours(0)).tenant("acme").items(added("a")).build());
    assertThat(last().getTenantId()).isEqualTo("acme");
    send(outcome("u", hours(0)).items(added("a")).build());
    assertThat(last().getTenantId()).as("no tenant in the outcome: unknown").isNull();
  }

  @Test
  void givenNewAndSeenItems_whenFetched_thenTheYieldCountsOnlyItemsMarkedAddedOrChanged() {
    send(outcome("s", hours(0)).items(added("a"), added("b"), seen("c")).build());
    send(
        outcome("s", hours(1))
            .items(item("a", ItemNovelty.seen), item("d", ItemNovelty.changed))
            .build());

    SourceStats stats = last();
    assertThat(stats.getWindowFetches()).isEqualTo(2);
    assertThat(stats.getAvgSignalYield()).isEqualTo(1.5); // (2 + 1) / 2
    assertThat(stats.getUpdatedAt()).isEqualTo(hours(1));
  }

  @Test
  void givenAnItemAlreadyCounted_whenAReEmittedRequestMarksItNewAgain_thenItIsNotCountedTwice() {
    send(outcome("s", hours(0)).items(added("a"), added("b")).build());
    // the scheduler re-emitted after the lease expired; the worker used the old cursor
    send(outcome("s", hours(2)).items(added("a"), added("b"), added("c")).build());

    SourceStats stats = last();
    assertThat(stats.getAvgSignalYield()).isEqualTo(1.5); // (2 + 1) / 2, not (2 + 3) / 2
    assertThat(stats.getConsecutiveEmpty()).isZero();
  }

  @Test
  void
      givenARedeliveredOutcome_whenTheSameRecordArrivesAgain_thenNothingChangesAndNothingIsEmitted() {
    FetchCompleted first = outcome("s", hours(0)).request("r-1").items(added("a")).build();
    send(first);
    SourceStats before = last();

    send(first);

    assertThat(out.isEmpty()).isTrue();
    assertThat(stateOf("s").window()).hasSize(1);
    assertThat(before.getAvgSignalYield()).isEqualTo(1.0);
  }

  @Test
  void
      givenARedeliveredRequest_whenASecondWorkerFetchesItAgain_thenTheFetchCountsButItsItemsDoNot() {
    send(outcome("s", hours(0)).request("r-1").items(added("a"), added("b")).build());
    send(outcome("s", hours(0.1)).request("r-1").items(added("a"), added("b")).build());

    SourceStats stats = last();
    assertThat(stats.getWindowFetches()).isEqualTo(2);
    assertThat(stats.getAvgSignalYield()).isEqualTo(1.0); // 2 new items over 2 fetches
    assertThat(stats.getConsecutiveEmpty()).isEqualTo(1);
  }

  @Test
  void givenFailures_whenTheyFollowEachOther_thenMissesCountUpAndASuccessResetsThem() {
    send(outcome("s", hours(0)).items(added("a")).build());
    send(outcome("s", hours(1)).status(FetchStatus.failed).build());
    send(outcome("s", hours(2)).status(FetchStatus.failed).build());
    SourceStats afterFailures = last();
    assertThat(afterFailures.getConsecutiveMisses()).isEqualTo(2);
    assertThat(afterFailures.getWindowFetches()).isEqualTo(1); // failures read nothing
    assertThat(afterFailures.getAvgSignalYield()).isEqualTo(1.0);

    send(outcome("s", hours(3)).status(FetchStatus.not_modified).build());
    assertThat(last().getConsecutiveMisses()).isZero();
  }

  @Test
  void givenFetchesWithNoNewItem_whenTheyFollowEachOther_thenEmptiesCountUpUntilANewItem() {
    send(outcome("s", hours(0)).items(added("a")).build());
    send(outcome("s", hours(1)).items(seen("a")).build());
    send(outcome("s", hours(2)).status(FetchStatus.not_modified).build());
    send(outcome("s", hours(3)).status(FetchStatus.failed).build());
    SourceStats empty = last();
    assertThat(empty.getConsecutiveEmpty()).isEqualTo(2); // a failure neither adds nor resets
    assertThat(empty.getAvgSignalYield()).isCloseTo(1.0 / 3, within(1e-9));

    send(outcome("s", hours(4)).items(seen("a"), added("b")).build());
    assertThat(last().getConsecutiveEmpty()).isZero();
  }

  @Test
  void givenAnExpiredRequest_whenItsOutcomeArrives_thenTheStatsDoNotChange() {
    send(outcome("s", hours(0)).items(added("a")).build());
    out.readValuesToList();
    send(outcome("s", hours(1)).status(FetchStatus.expired).build());
    assertThat(out.isEmpty()).isTrue();
    assertThat(stateOf("s").window()).hasSize(1);
  }

  @Test
  void givenNewItemsOfSeveralTypes_whenCounted_thenTypeCountsAndTheDominantTypeFollowThem() {
    send(
        outcome("s", hours(0))
            .items(
                typed("a", SignalType.give),
                typed("b", SignalType.give),
                typed("c", SignalType.informative),
                typed("d", SignalType.informative),
                typed("e", SignalType.ask))
            .build());
    SourceStats tie = last();
    assertThat(tie.getTypeCounts())
        .containsExactlyInAnyOrderEntriesOf(Map.of("give", 2L, "informative", 2L, "ask", 1L));
    assertThat(tie.getDominantSignalType()).isEqualTo(SignalType.give); // tie → more urgent

    send(outcome("s", hours(1)).items(typed("f", SignalType.informative), seen("a")).build());
    assertThat(last().getDominantSignalType()).isEqualTo(SignalType.informative);
  }

  @Test
  void givenNoNewItem_whenDerived_thenThereIsNoDominantType() {
    send(outcome("s", hours(0)).status(FetchStatus.not_modified).build());
    SourceStats stats = last();
    assertThat(stats.getDominantSignalType()).isNull();
    assertThat(stats.getTypeCounts()).isEmpty();
    assertThat(stats.getAvgSignalYield()).isZero();
  }

  @Test
  void givenEventDatesInThePastAndTheFuture_whenDerived_thenTheMedianUsesOnlyFutureOnes() {
    Instant at = hours(0);
    send(
        outcome("s", at)
            .items(
                withEvent("past", at.minus(Duration.ofDays(3))),
                withEvent("in1", at.plus(Duration.ofDays(1))),
                withEvent("in2", at.plus(Duration.ofDays(2))),
                withEvent("in9", at.plus(Duration.ofDays(9))),
                withEvent("in10", at.plus(Duration.ofDays(10))))
            .build());
    assertThat(last().getMedianDaysToEvent()).isEqualTo(5.5); // median of 1, 2, 9, 10

    send(
        outcome("s", hours(24))
            .items(withEvent("in4", hours(24).plus(Duration.ofDays(4))))
            .build());
    assertThat(last().getMedianDaysToEvent()).isEqualTo(4.0); // 1, 2, 4, 9, 10
  }

  @Test
  void givenOnlyPastEventDates_whenDerived_thenThereIsNoMedian() {
    send(outcome("s", hours(0)).items(withEvent("past", T.minus(Duration.ofDays(1)))).build());
    assertThat(last().getMedianDaysToEvent()).isNull();
  }

  @Test
  void givenFewerThanTwoPublicationDates_whenDerived_thenThereIsNoPublishInterval() {
    send(outcome("s", hours(0)).items(added("undated")).build());
    assertThat(last().getPublishIntervalAvg()).isNull();
    send(
        outcome("s", hours(1))
            .items(
                published("one", ItemNovelty.added, hours(0.5)),
                published("future", ItemNovelty.added, hours(30)))
            .build());
    SourceStats stats = last();
    assertThat(stats.getPublishIntervalAvg()).isNull(); // a future date is malformed, not used
    assertThat(stats.getRecentPublishedAt()).containsExactly(hours(0.5));
  }

  @Test
  void givenMoreThanTenPublicationDates_whenDerived_thenTheIntervalIsTheMeanGapOfTheNewestTen() {
    List<ItemDigest> items = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      items.add(published("p" + i, ItemNovelty.added, hours(i * 2)));
    }
    send(outcome("s", hours(40)).items(items).build());
    SourceStats stats = last();
    assertThat(stats.getRecentPublishedAt()).hasSize(10).first().isEqualTo(hours(28));
    assertThat(stats.getPublishIntervalAvg()).isEqualTo(Duration.ofHours(2).toMillis());
  }

  @Test
  void givenMoreFetchesThanTheWindow_whenDerived_thenOnlyTheLastNCount() {
    stop();
    start(new StatsSettings(5, 512, 32, Duration.ofDays(14), Duration.ofHours(24)));
    for (int i = 0; i < 5; i++) {
      send(outcome("s", hours(i)).items(added("x" + i), added("y" + i)).build());
    }
    for (int i = 5; i < 8; i++) {
      send(outcome("s", hours(i)).status(FetchStatus.not_modified).build());
    }
    SourceStats stats = last();
    assertThat(stats.getWindowFetches()).isEqualTo(5);
    assertThat(stats.getAvgSignalYield()).isEqualTo(0.8); // 2 + 2 + 0 + 0 + 0 over 5
  }

  /**
   * {@code feeds} feeds read daily for {@code days} days, the first {@code lively} publishing two
   * items a day, the others nothing since an item a month old; then a newcomer read twice a day
   * apart, empty both times. Returns the newcomer's change rate.
   */
  private double newcomerAmong(int feeds, int lively, int days) {
    for (int d = 0; d <= days; d++) {
      for (int f = 0; f < feeds; f++) {
        var o = outcome("feed-" + f, hours(24 * d));
        if (d == 0) {
          o.items(published("old-" + f, ItemNovelty.added, hours(-24 * 30)));
        } else if (f < lively) {
          o.items(
              published("f" + f + "-" + d + "a", ItemNovelty.added, hours(24 * d - 5)),
              published("f" + f + "-" + d + "b", ItemNovelty.added, hours(24 * d - 17)));
        } else {
          o.status(FetchStatus.not_modified);
        }
        send(o.build());
      }
    }
    send(
        outcome("newcomer", hours(24 * days))
            .items(published("n-old", ItemNovelty.added, hours(24 * days - 24)))
            .build());
    send(outcome("newcomer", hours(24 * days + 24)).status(FetchStatus.not_modified).build());
    return last().getChangeRate();
  }

  @Test
  void givenTheSameEvidence_whenTheTasksPopulationIsDeadOrLively_thenTheChangeRateFollowsIt() {
    double amongDead = newcomerAmong(30, 0, 20);
    assertThat(driver.getKeyValueStore(SourceStatsTopology.PRIOR_STORE).get(RatePopulation.ITEMS))
        .as("the feeds' prior is kept in the task's store")
        .isNotNull();
    stop();
    start();
    double amongLively = newcomerAmong(30, 30, 20);
    // two empty days mean "dead" among dead peers and "a slow day" among peers that publish two
    // items a day (empirical Bayes); the tracker's estimate would be the same in both
    assertThat(amongDead).isLessThan(amongLively / 10);
    assertThat(amongLively).isBetween(0.01, 2.0 / 24);
  }

  @Test
  void givenTheTrackerEstimator_whenThePopulationDiffers_thenTheChangeRateDoesNot() {
    StatsSettings tracker = StatsSettings.defaults().withEstimator(StatsSettings.Estimator.TRACKER);
    stop();
    start(tracker);
    double amongDead = newcomerAmong(10, 0, 5);
    stop();
    start(tracker);
    assertThat(newcomerAmong(10, 10, 5)).isEqualTo(amongDead);
  }

  @Test
  void givenASourceThatGoesQuietThenWakesUp_whenFetchedHourly_thenItsChangeRateFallsThenRises() {
    int h = 0;
    int n = 0;
    for (; h < 48; h++) { // busy: two items an hour
      send(
          outcome("s", hours(h))
              .items(
                  published("i" + n++, ItemNovelty.added, hours(h - 0.5)),
                  published("i" + n++, ItemNovelty.added, hours(h - 0.2)))
              .build());
    }
    double busy = last().getChangeRate();
    for (; h < 48 + 24 * 20; h++) { // quiet for 20 days
      send(outcome("s", hours(h)).status(FetchStatus.not_modified).build());
    }
    double quiet = last().getChangeRate();
    for (int k = 0; k < 72; k++, h++) { // wakes up for three days
      send(
          outcome("s", hours(h))
              .items(
                  published("i" + n++, ItemNovelty.added, hours(h - 0.5)),
                  published("i" + n++, ItemNovelty.added, hours(h - 0.2)))
              .build());
    }
    double awake = last().getChangeRate();

    assertThat(busy).isGreaterThan(1.0);
    assertThat(quiet).isLessThan(busy / 10);
    // the posterior forgets items with a 60-day time constant (the lab's), so three lively days
    // after twenty quiet ones more than double the estimate, not more
    assertThat(awake).isGreaterThan(quiet * 2);
  }

  @Test
  void givenAPageWithoutItemDates_whenItChangesEveryFetch_thenTheRateComesFromChangedOutcomes() {
    for (int h = 0; h < 30; h++) {
      send(outcome("p", hours(h)).items(added("v" + h)).build());
    }
    double changing = last().getChangeRate();
    for (int h = 30; h < 30 + 200; h++) {
      send(outcome("p", hours(h)).items(seen("v29")).build());
    }
    double still = last().getChangeRate();
    assertThat(changing).isGreaterThan(1.0);
    assertThat(still).isLessThan(changing);
  }

  @Test
  void givenUndecodableBytes_whenConsumed_thenTheyGoToTheDeadLetterTopicWithTheReason() {
    in.pipeInput("s", "not avro at all".getBytes(StandardCharsets.UTF_8));

    var dead = dlq.readRecord();
    assertThat(dead.key()).isEqualTo("s");
    assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("not avro at all");
    assertThat(
            new String(
                dead.headers().lastHeader("kafka_dlt-exception-message").value(),
                StandardCharsets.UTF_8))
        .contains(FreshetTopics.FETCH_COMPLETED)
        .contains("offset 0");
    assertThat(
            new String(
                dead.headers().lastHeader("kafka_dlt-original-consumer-group").value(),
                StandardCharsets.UTF_8))
        .as("which of the topic's consumers rejected it")
        .isEqualTo("stats-test");
    assertThat(out.isEmpty()).isTrue();
  }

  @Test
  void givenARecordKeyedByAnotherSource_whenConsumed_thenItIsDeadLetteredNotCounted() {
    FetchCompleted o = outcome("s", hours(0)).items(added("a")).build();
    in.pipeInput("other", COMPLETED.valueSerde().serializer().serialize(COMPLETED.name(), o));

    assertThat(
            new String(
                dlq.readRecord().headers().lastHeader("kafka_dlt-exception-message").value(),
                StandardCharsets.UTF_8))
        .contains("is not the source_id");
    assertThat(out.isEmpty()).isTrue();
    assertThat(stateOf("s")).isNull();
  }

  @Test
  void givenAStatusOfANewerSchema_whenConsumed_thenItIsDeadLetteredNotCountedAsAFailure() {
    send(outcome("s", hours(0)).status(FetchStatus.unknown).build());

    assertThat(
            new String(
                dlq.readRecord().headers().lastHeader("kafka_dlt-exception-message").value(),
                StandardCharsets.UTF_8))
        .contains("newer schema");
    assertThat(out.isEmpty()).isTrue();
    assertThat(stateOf("s")).isNull();
  }

  @Test
  void givenTwoSources_whenInterleaved_thenEachKeepsItsOwnStats() {
    send(outcome("a", hours(0)).items(added("x"), added("y")).build());
    send(outcome("b", hours(0)).status(FetchStatus.failed).build());
    var all = out.readKeyValuesToMap();
    assertThat(all.get("a").getAvgSignalYield()).isEqualTo(2.0);
    assertThat(all.get("b").getConsecutiveMisses()).isEqualTo(1);
    assertThat(all.get("b").getWindowFetches()).isZero();
  }

  @Test
  void theTopologyNamesEveryNodeAndStoreAndHasNoRepartitionTopic() {
    String description =
        SourceStatsTopology.build(
                COMPLETED,
                STATS,
                new StatsUpdater(StatsSettings.defaults(), Clock.systemUTC()),
                "stats-test")
            .describe()
            .toString();
    assertThat(description)
        .contains(SourceStatsTopology.SOURCE, SourceStatsTopology.PROCESSOR)
        .contains(SourceStatsTopology.STORE, SourceStatsTopology.STATS_SINK)
        .contains(SourceStatsTopology.DLQ_SINK)
        .doesNotContain("KSTREAM-", "KTABLE-", "repartition");
  }

  SourceState stateOf(String sourceId) {
    KeyValueStore<String, SourceState> store = driver.getKeyValueStore(SourceStatsTopology.STORE);
    return store.get(sourceId);
  }
}
