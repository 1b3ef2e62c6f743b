package io.freshet.scheduler.schedule;

import static io.freshet.scheduler.testing.TestEvents.completed;
import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.claims.ClaimRound;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.outcomes.OutcomeApplier;
import io.freshet.scheduler.outcomes.OutcomeApplier.Result;
import io.freshet.scheduler.outcomes.StatsApplier;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The scaled cadence clock ({@code freshet.scheduler.cadence-time.*}) in a running scheduler, with
 * the real PostgreSQL, Kafka and registry: at scale 60 (a model hour per wall minute), a success is
 * scheduled in model time — the hourly source of {@code OutcomesIT}, due 60 min after its fetch in
 * real time, is due 60 s after it here — while a failure's back-off, a {@code Retry-After} and the
 * claim lease stay in wall time.
 *
 * <p>Its own Spring context (these settings), closed after the class: its listeners must not apply
 * other tests' outcomes on the scaled clock.
 */
@TestPropertySource(
    properties = {
      "freshet.scheduler.cadence-time.scale=60",
      "freshet.scheduler.cadence-time.model-origin=2025-02-18T00:00:00Z",
      // exact intervals: the jitter is ServerRulesTest's and OutcomesIT's subject, not this one's
      "freshet.scheduler.web.interval-jitter=0",
      "freshet.scheduler.web.backoff-jitter=0"
    })
@DirtiesContext
class ScaledCadenceIT extends SchedulerItSupport {

  /** Where the model is at 2025-02-18 (the demo web's trace start): this class's start. */
  static final Instant WALL_ORIGIN = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";
  private static final String FEED_FREQUENCY = "{\"cadence\":{\"mode\":\"feed_frequency\"}}";

  @DynamicPropertySource
  static void wallOrigin(DynamicPropertyRegistry registry) {
    registry.add("freshet.scheduler.cadence-time.wall-origin", WALL_ORIGIN::toString);
  }

  @Autowired OutcomeApplier applier;
  @Autowired StatsApplier stats;
  @Autowired ClaimRound claimRound;
  @Autowired SchedulerProperties props;
  @Autowired CadenceTimeScale time;

  @Test
  void theSettingsReachTheScheduler() {
    assertThat(time.scale()).isEqualTo(60.0);
    assertThat(time.toModel(WALL_ORIGIN)).isEqualTo(Instant.parse("2025-02-18T00:00:00Z"));
    assertThat(time.toModel(WALL_ORIGIN.plusSeconds(60)))
        .isEqualTo(Instant.parse("2025-02-18T01:00:00Z"));
  }

  @Test
  void aSuccessIsDueAfterOneSixtiethOfTheHourlyInterval() {
    UUID id = claimedHourlySource();
    FetchCompleted ok = completed(id, 1, FetchStatus.ok);

    assertThat(applier.apply(ok)).isEqualTo(Result.APPLIED);

    // Unscaled, OutcomesIT finds finishedAt + 60 min; on the 60x clock it is 60 min / 60.
    assertThat(Duration.between(ok.getFinishedAt(), instantColumn(id, "next_due_at")))
        .isBetween(Duration.ofMillis(59_900), Duration.ofMillis(60_100));
  }

  @Test
  void aNotModifiedIsScheduledInModelTimeToo() {
    UUID id = claimedHourlySource();
    FetchCompleted notModified = completed(id, 1, FetchStatus.not_modified);

    assertThat(applier.apply(notModified)).isEqualTo(Result.APPLIED);

    assertThat(Duration.between(notModified.getFinishedAt(), instantColumn(id, "next_due_at")))
        .isBetween(Duration.ofMillis(59_900), Duration.ofMillis(60_100));
  }

  @Test
  void aFailureBacksOffInWallTimeAsIfUnscaled() {
    UUID id = claimedHourlySource();
    FetchCompleted failed = failed(id, 1, null);

    assertThat(applier.apply(failed)).isEqualTo(Result.APPLIED);

    // One miss doubles the hourly interval: 2 h of wall time, not 2 model hours (2 wall minutes).
    assertThat(Duration.between(failed.getFinishedAt(), instantColumn(id, "next_due_at")))
        .isBetween(
            Duration.ofMinutes(120).minusMillis(100), Duration.ofMinutes(120).plusMillis(100));
    assertThat(column(id, "consecutive_misses", Integer.class)).isOne();
  }

  @Test
  void aRetryAfterIsAWallClockFloorWhenTheScheduleIsRecomputed() {
    // Fetched a moment ago, then a 429 asked for 10 wall minutes; stats now arrive. In model time
    // the source would be due 60 s after its fetch; the Retry-After holds it back to its instant.
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    UUID id = source().config(HOURLY).cursor(cursorAt(now)).insert();
    Instant retryAfter = now.plus(Duration.ofMinutes(10));
    jdbc.sql("UPDATE scheduler.sources SET retry_after = :at WHERE id = :id")
        .param("at", java.sql.Timestamp.from(retryAfter))
        .param("id", id)
        .update();

    assertThat(stats.apply(stats(id, now, List.of(), null))).isTrue();

    assertThat(instantColumn(id, "next_due_at")).isEqualTo(retryAfter);
  }

  @Test
  void aFailureWithRetryAfterWaitsForItsWallInstant() {
    UUID id = claimedHourlySource();
    Instant retryAfter = Instant.now().plus(Duration.ofHours(3)).truncatedTo(ChronoUnit.MILLIS);

    assertThat(applier.apply(failed(id, 1, retryAfter))).isEqualTo(Result.APPLIED);

    assertThat(instantColumn(id, "next_due_at")).isAfterOrEqualTo(retryAfter);
  }

  @Test
  void statsAreReadInModelTimePublicationGapsAndTheTierFloorAlike() {
    // Ten items two wall minutes apart: two model hours apart. feed_frequency wants 2 h; the pro
    // tier's 1 h floor does not bind. Due 2 model hours = 120 wall s after the last fetch. Read
    // unscaled, the same stats would ask for 2 min and the floor would make it 60 min.
    Instant lastFetch = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    UUID id = source().config(FEED_FREQUENCY).cursor(cursorAt(lastFetch)).insert();
    List<Instant> published = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      published.add(lastFetch.minus(Duration.ofMinutes(2L * i)));
    }

    assertThat(stats.apply(stats(id, lastFetch, published, 120_000L))).isTrue();

    assertThat(Duration.between(lastFetch, instantColumn(id, "next_due_at")))
        .isBetween(Duration.ofMillis(119_900), Duration.ofMillis(120_100));

    // Items every 20 wall s are 20 model minutes apart: under the tier floor, so due 1 model hour
    // = 60 wall s after the fetch (the floor holds in model time, and so in wall time / 60).
    List<Instant> busy = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      busy.add(lastFetch.minusSeconds(20L * i));
    }
    assertThat(stats.apply(stats(id, lastFetch.plusMillis(1), busy, 20_000L))).isTrue();
    assertThat(Duration.between(lastFetch, instantColumn(id, "next_due_at")))
        .isBetween(Duration.ofMillis(59_900), Duration.ofMillis(60_100));
  }

  @Test
  void theClaimLeaseIsWallTime() {
    UUID id = source().config(HOURLY).insert();
    Instant before = Instant.now();

    assertThat(claimRound.claimDue()).isOne();

    Instant lease = instantColumn(id, "lease_until");
    assertThat(lease)
        .isAfterOrEqualTo(before.plus(props.leaseDuration()).minusSeconds(1))
        .isBeforeOrEqualTo(Instant.now().plus(props.leaseDuration()).plusSeconds(1));
    assertThat(requestsOfTenant())
        .singleElement()
        .satisfies(r -> assertThat(r.getSourceId()).isEqualTo(id.toString()));
  }

  private UUID claimedHourlySource() {
    return source()
        .config(HOURLY)
        .cursor("{\"last_fetch_at\":\"2026-11-20T10:00:00Z\"}")
        .claimed(1, Instant.now().plus(Duration.ofMinutes(5)))
        .insert();
  }

  private static String cursorAt(Instant lastFetch) {
    return "{\"last_fetch_at\":\"" + lastFetch + "\"}";
  }

  private static FetchCompleted failed(UUID id, long epoch, Instant retryAfter) {
    FetchCompleted failed = completed(id, epoch, FetchStatus.failed);
    failed.setCursor(null);
    failed.setHttpStatus(retryAfter == null ? 503 : 429);
    failed.setErrorKind(retryAfter == null ? "http_5xx" : "http_4xx");
    failed.setErrorMessage(retryAfter == null ? "503 Service Unavailable" : "429 Too Many");
    failed.setRetryAfter(retryAfter);
    return failed;
  }

  private static SourceStats stats(
      UUID id, Instant updatedAt, List<Instant> published, Long intervalMs) {
    return SourceStats.newBuilder()
        .setSourceId(id.toString())
        .setWindowFetches(10)
        .setAvgSignalYield(1.0)
        .setDominantSignalType(SignalType.informative)
        .setTypeCounts(Map.of("informative", 10L))
        .setRecentPublishedAt(published)
        .setPublishIntervalAvg(intervalMs)
        .setChangeRate(0.0)
        .setUpdatedAt(updatedAt)
        .build();
  }
}
