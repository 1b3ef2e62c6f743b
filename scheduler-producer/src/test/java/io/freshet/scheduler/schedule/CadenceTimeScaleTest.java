package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.cadence.CadenceEngine;
import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.testing.Settings;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class CadenceTimeScaleTest {

  static final Instant WALL0 = Instant.parse("2026-11-23T00:00:00Z");
  static final Instant TRACE0 = Instant.parse("2024-03-01T00:00:00Z");
  static final CadenceTimeScale SIXTY = new CadenceTimeScale(60, WALL0, TRACE0);

  @Test
  void mapsInstantsBothWaysAroundTheOrigins() {
    Instant wall = WALL0.plus(Duration.ofMinutes(1));
    assertThat(SIXTY.toModel(wall)).isEqualTo(TRACE0.plus(Duration.ofHours(1)));
    assertThat(SIXTY.toWall(TRACE0.plus(Duration.ofHours(1)))).isEqualTo(wall);
    assertThat(SIXTY.toModel(WALL0.minusSeconds(30))).isEqualTo(TRACE0.minusSeconds(1800));
    Instant odd = WALL0.plusMillis(12_345);
    assertThat(SIXTY.toWall(SIXTY.toModel(odd))).isEqualTo(odd);
    assertThat(SIXTY.toModel((Instant) null)).isNull();
  }

  @Test
  void mapsTheTimeDenominatedFieldsOfASnapshotAndNothingElse() {
    SourceSnapshot wall =
        SourceSnapshot.builder()
            .lastFetchAt(WALL0.plusSeconds(60))
            .retryAfter(WALL0.plusSeconds(120))
            .recentPublishedAt(List.of(WALL0.plusSeconds(30)))
            .publishIntervalAvg(Duration.ofSeconds(30))
            .changeRatePerHour(60.0)
            .medianDaysToEvent(0.5)
            .avgSignalYield(2.5)
            .windowFetches(7)
            .consecutiveEmpty(3)
            .build();

    SourceSnapshot model = SIXTY.toModel(wall);

    assertThat(model.lastFetchAt()).isEqualTo(TRACE0.plus(Duration.ofHours(1)));
    assertThat(model.retryAfter()).isEqualTo(TRACE0.plus(Duration.ofHours(2)));
    assertThat(model.recentPublishedAt()).containsExactly(TRACE0.plus(Duration.ofMinutes(30)));
    assertThat(model.publishIntervalAvg()).isEqualTo(Duration.ofMinutes(30));
    assertThat(model.changeRatePerHour()).isEqualTo(1.0);
    assertThat(model.medianDaysToEvent()).isEqualTo(30.0);
    assertThat(model.avgSignalYield()).isEqualTo(2.5);
    assertThat(model.windowFetches()).isEqualTo(7);
    assertThat(model.consecutiveEmpty()).isEqualTo(3);
  }

  @Test
  void theIdentityChangesNothing() {
    SourceSnapshot s = SourceSnapshot.builder().lastFetchAt(WALL0).changeRatePerHour(2.0).build();
    assertThat(CadenceTimeScale.identity().toModel(s)).isSameAs(s);
    assertThat(CadenceTimeScale.identity().toWall(WALL0)).isEqualTo(WALL0);
    assertThat(new CadenceTimeScale(1, WALL0, WALL0).isIdentity()).isTrue();
    assertThat(new CadenceTimeScale(1, WALL0, TRACE0).isIdentity()).isFalse();
  }

  @Test
  void refusesAScaleThatIsNotAPositiveFiniteNumber() {
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      assertThatThrownBy(() -> new CadenceTimeScale(bad, WALL0, TRACE0))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cadence-time.scale");
    }
  }

  // ------------------------------------------------------------ the settings (CadenceConfig)

  static SchedulerProperties settings(double scale, String wall, String model, double budget) {
    SchedulerProperties d = Settings.defaults().budgetPerHour(budget).build();
    return new SchedulerProperties(
        d.claimingEnabled(),
        d.claimThreads(),
        d.tick(),
        d.batchSize(),
        d.leaseDuration(),
        d.maxInFlight(),
        d.sendTimeout(),
        d.budgetPerHour(),
        d.budgetReplanInterval(),
        d.defaultCadence(),
        d.gaugeRefresh(),
        d.censusRefresh(),
        new SchedulerProperties.CadenceTime(scale, wall, model),
        d.web());
  }

  static CadenceTimeScale configured(SchedulerProperties p) {
    return new CadenceConfig().cadenceTimeScale(p, Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @Test
  void theDefaultsAreRealTime() {
    assertThat(configured(settings(1, "", "", 0)).isIdentity()).isTrue();
  }

  @Test
  void originsDefaultToTheStartAndToEachOther() {
    CadenceTimeScale onlyScale = configured(settings(60, "", "", 0));
    assertThat(onlyScale.toModel(NOW)).isEqualTo(NOW);
    assertThat(onlyScale.toModel(NOW.plusSeconds(1))).isEqualTo(NOW.plusSeconds(60));

    CadenceTimeScale demo = configured(settings(60, WALL0.toString(), TRACE0.toString(), 0));
    assertThat(demo.toModel(WALL0.plusSeconds(60))).isEqualTo(TRACE0.plusSeconds(3600));
  }

  @Test
  void badSettingsStopTheStartWithTheKeyAndTheValue() {
    assertThatThrownBy(() -> configured(settings(60, "yesterday", "", 0)))
        .hasMessageContaining("freshet.scheduler.cadence-time.wall-origin")
        .hasMessageContaining("'yesterday'");
    assertThatThrownBy(() -> configured(settings(60, "", "2024-13-01", 0)))
        .hasMessageContaining("freshet.scheduler.cadence-time.model-origin");
    assertThatThrownBy(() -> configured(settings(60, "", "", 100)))
        .hasMessageContaining("budget-per-hour");
  }

  // ------------------------------------------------------------ at the scheduler's door (NextDue)

  static final Instant NOW = WALL0.plus(Duration.ofMinutes(10));
  static final CadenceEngine ENGINE = new CadenceEngine(Clock.fixed(NOW, ZoneOffset.UTC));

  static NextDue nextDue(CadenceTimeScale time) {
    return new NextDue(ENGINE, new BudgetPlanner(null, ENGINE, null, null), time);
  }

  /**
   * A feed_frequency source whose last 10 items came every 30 wall seconds until now; no tenant
   * tier, whose floor (pro: 1 h) would hide the policy's interval.
   */
  static ScheduleRow busyFeed(String cadence) {
    return feedPublishingEvery(cadence, Duration.ofSeconds(30));
  }

  /** The same with its last 10 items {@code gap} apart (wall time), the newest now. */
  static ScheduleRow feedPublishingEvery(String cadence, Duration gap) {
    List<Instant> published = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      published.add(NOW.minus(gap.multipliedBy(i)));
    }
    return new ScheduleRow(
        UUID.randomUUID(),
        null,
        "rss",
        true,
        "{\"cadence\":" + cadence + "}",
        "{\"last_fetch_at\":\"" + NOW.minusSeconds(40) + "\"}",
        NOW,
        null,
        4,
        false,
        null,
        0,
        0,
        5,
        1.0,
        "informative",
        "{}",
        null,
        gap.toMillis(),
        published,
        null,
        NOW,
        null,
        "https://feed.example/rss",
        false,
        null,
        null);
  }

  @Test
  void aSuccessIsScheduledInModelTime() {
    ScheduleRow row = busyFeed("{\"mode\":\"feed_frequency\"}");
    Outcome ok = new Outcome.Success(NOW);

    // Real time: items every 30 s are far inside the 15 min floor.
    Instant real = nextDue(CadenceTimeScale.identity()).afterOutcome(row, ok, NOW);
    assertThat(Duration.between(NOW, real)).isEqualTo(Duration.ofMinutes(15));

    // At 60x the same items came every 30 model minutes: due 30 model minutes = 30 wall s later.
    Instant scaled = nextDue(SIXTY).afterOutcome(row, ok, NOW);
    assertThat(Duration.between(NOW, scaled)).isEqualTo(Duration.ofSeconds(30));

    // And recomputing (stats arrived) agrees: 30 s after the last fetch.
    assertThat(nextDue(SIXTY).recompute(row, NOW)).isEqualTo(NOW.minusSeconds(10));
  }

  @Test
  void theCadenceClampHoldsInModelTimeSoWallIntervalsAreItsOneSixtieth() {
    String feedFrequency = "{\"mode\":\"feed_frequency\"}";
    Outcome ok = new Outcome.Success(NOW);

    // Items a wall second apart are a model minute apart: clamped up to the 15 model-minute floor,
    // 15 wall seconds.
    ScheduleRow frantic = feedPublishingEvery(feedFrequency, Duration.ofSeconds(1));
    assertThat(Duration.between(NOW, nextDue(SIXTY).afterOutcome(frantic, ok, NOW)))
        .isEqualTo(Duration.ofSeconds(15));

    // Items a wall hour apart are 60 model hours apart: clamped down to the 24 h ceiling, 24 wall
    // minutes.
    ScheduleRow sparse = feedPublishingEvery(feedFrequency, Duration.ofHours(1));
    assertThat(Duration.between(NOW, nextDue(SIXTY).afterOutcome(sparse, ok, NOW)))
        .isEqualTo(Duration.ofMinutes(24));

    // A due time is never before the fetch it follows, however fast the clock.
    var fast = new CadenceTimeScale(1e6, WALL0, TRACE0);
    assertThat(nextDue(fast).afterOutcome(frantic, ok, NOW)).isAfter(NOW);
  }

  @Test
  void aFailureBacksOffInWallTime() {
    ScheduleRow row = busyFeed("{\"mode\":\"feed_frequency\"}");
    Outcome failed = new Outcome.Failure(NOW, null);

    Instant real = nextDue(CadenceTimeScale.identity()).afterOutcome(row, failed, NOW);
    Instant scaled = nextDue(SIXTY).afterOutcome(row, failed, NOW);

    assertThat(scaled).isEqualTo(real).isAfter(NOW);
  }

  @Test
  void aRetryAfterStaysAWallClockFloor() {
    ScheduleRow base = busyFeed("{\"mode\":\"feed_frequency\"}");
    Instant retryAfter = NOW.plus(Duration.ofMinutes(5));
    ScheduleRow throttled =
        new ScheduleRow(
            base.id(),
            base.tenantTier(),
            base.category(),
            true,
            base.configJson(),
            base.cursorJson(),
            base.nextDueAt(),
            null,
            base.epoch(),
            false,
            retryAfter,
            0,
            0,
            base.windowFetches(),
            base.avgSignalYield(),
            base.dominantSignalType(),
            base.typeCountsJson(),
            null,
            base.publishIntervalAvgMs(),
            base.recentPublishedAt(),
            null,
            NOW,
            null,
            "https://feed.example/rss",
            false,
            null,
            null);

    assertThat(nextDue(SIXTY).recompute(throttled, NOW)).isEqualTo(retryAfter);
  }
}
