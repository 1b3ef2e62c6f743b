package io.freshet.scheduler.outcomes;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleBatches;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.avro.SourceStats;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Issue 24: a poll's stats write each source's row once — the stats and the due time computed from
 * them in one statement — and the due time stored is the one {@link NextDue} gives for the stored
 * row. Row versions are counted by PostgreSQL itself: {@code pg_stat_xact_user_tables} counts the
 * rows the current transaction updated, so each poll runs inside a transaction of the test's own.
 */
class StatsOneRowVersionIT extends SchedulerItSupport {

  private static final String FEED_FREQUENCY = "{\"cadence\":{\"mode\":\"feed_frequency\"}}";
  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";

  @Autowired ScheduleBatches schedule;
  @Autowired TransactionTemplate tx;
  @Autowired NextDue nextDue;
  @Autowired JdbcTemplate jdbcTemplate;

  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

  @Test
  void aPollsStatsWriteOneRowVersionPerSourceAndTheDueTimeThatNextDueGivesTheStoredRow() {
    Instant lastFetch = now.minus(Duration.ofMinutes(10));
    UUID a = source().config(FEED_FREQUENCY).cursor(cursorAt(lastFetch)).insert();
    UUID b = source().config(HOURLY).cursor(cursorAt(lastFetch)).insert();
    ScheduleRow aBefore = select(a);
    SourceStats aNewest = stats(a, now, Duration.ofHours(3));
    String ctidBefore = ctid(a);

    Applied applied =
        applyInOwnTransaction(
            List.of(
                stats(a, now.minusSeconds(60), Duration.ofHours(2)),
                stats(b, now, Duration.ofHours(2)),
                aNewest));

    assertThat(applied.verdicts()).containsExactly(true, true, true);
    assertThat(applied.rowsUpdated()).as("one row version per source, not two").isEqualTo(2);
    assertThat(ctid(a)).isNotEqualTo(ctidBefore);

    ScheduleRow stored = select(a);
    Instant due = nextDue.recompute(stored, now);
    assertThat(stored.nextDueAt()).isEqualTo(due.truncatedTo(ChronoUnit.MICROS));
    assertThat(due)
        .as("the due time follows the new stats (items three hours apart)")
        .isNotEqualTo(nextDue.recompute(aBefore, now));
    assertThat(stored).isEqualTo(aBefore.withStats(aNewest).withNextDueAt(due));
    assertThat(instantColumn(a, "updated_at")).isEqualTo(now);
    ScheduleRow storedB = select(b);
    assertThat(storedB.nextDueAt()).isEqualTo(nextDue.recompute(storedB, now));
  }

  @Test
  void statsThatChangeNothingWriteNothingAndOlderOnesAreRefused() {
    UUID id = source().config(FEED_FREQUENCY).cursor(cursorAt(now.minusSeconds(600))).insert();
    SourceStats stats = stats(id, now, Duration.ofHours(3));
    assertThat(applyInOwnTransaction(List.of(stats)).rowsUpdated()).isOne();
    ScheduleRow stored = select(id);
    String ctid = ctid(id);

    Applied again = applyInOwnTransaction(List.of(stats(id, now, Duration.ofHours(3))));
    Applied older = applyInOwnTransaction(List.of(stats(id, now.minusMillis(1), Duration.ZERO)));

    assertThat(again.verdicts()).as("the same updated_at counts as stored").containsExactly(true);
    assertThat(again.rowsUpdated()).isZero();
    assertThat(older.verdicts()).containsExactly(false);
    assertThat(older.rowsUpdated()).isZero();
    assertThat(select(id)).isEqualTo(stored);
    assertThat(ctid(id)).isEqualTo(ctid);
  }

  @Test
  void aFetchInFlightKeepsItsDueTimeAndAPendingFetchNowKeepsItDueNow() {
    Instant leaseEnd = now.plus(Duration.ofMinutes(5));
    Instant updatedAt = Instant.parse("2026-01-01T00:00:00Z");
    UUID leased =
        source()
            .config(HOURLY)
            .cursor(cursorAt(now.minusSeconds(600)))
            .claimed(1, leaseEnd)
            .insert();
    UUID manual = source().config(HOURLY).cursor(cursorAt(now.minusSeconds(600))).insert();
    jdbc.sql("UPDATE scheduler.sources SET manual_requested = (id = :manual), updated_at = :at")
        .param("manual", manual)
        .param("at", java.sql.Timestamp.from(updatedAt))
        .update();

    Applied applied =
        applyInOwnTransaction(
            List.of(
                stats(leased, now, Duration.ofHours(3)), stats(manual, now, Duration.ofHours(3))));

    assertThat(applied.rowsUpdated()).isEqualTo(2);
    assertThat(instantColumn(leased, "next_due_at")).isEqualTo(leaseEnd);
    assertThat(instantColumn(leased, "updated_at"))
        .as("stats alone do not touch updated_at, as before")
        .isEqualTo(updatedAt);
    assertThat(instantColumn(leased, "stats_updated_at")).isEqualTo(now);
    assertThat(instantColumn(manual, "next_due_at")).isEqualTo(now);
    assertThat(instantColumn(manual, "updated_at")).isEqualTo(now);
  }

  private record Applied(List<Boolean> verdicts, long rowsUpdated) {}

  /** Applies a poll in a transaction of the test's own and counts the rows it updated. */
  private Applied applyInOwnTransaction(List<SourceStats> poll) {
    var applier = new StatsApplier(schedule, tx, nextDue, Clock.fixed(now, ZoneOffset.UTC));
    Supplier<Long> updated =
        () ->
            jdbcTemplate.queryForObject(
                "SELECT coalesce(sum(n_tup_upd), 0) FROM pg_stat_xact_user_tables"
                    + " WHERE relid = 'scheduler.sources'::regclass",
                Long.class);
    return tx.execute(
        status -> {
          long before = updated.get();
          List<Boolean> verdicts = new ArrayList<>();
          applier.applyAll(poll).forEach(v -> verdicts.add(v.result()));
          return new Applied(verdicts, updated.get() - before);
        });
  }

  private ScheduleRow select(UUID id) {
    return jdbcTemplate.queryForObject(
        "SELECT "
            + ScheduleRow.COLUMNS
            + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
            + " WHERE s.id = ?",
        ScheduleRow::map,
        id);
  }

  private String ctid(UUID id) {
    return column(id, "ctid::text", String.class);
  }

  private static String cursorAt(Instant lastFetch) {
    return "{\"last_fetch_at\":\"" + lastFetch + "\"}";
  }

  /** Stats whose ten latest items are {@code gap} apart (what feed_frequency reads). */
  private static SourceStats stats(UUID id, Instant updatedAt, Duration gap) {
    List<Instant> published = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      published.add(updatedAt.minus(gap.multipliedBy(i)));
    }
    return SourceStats.newBuilder()
        .setSourceId(id.toString())
        .setWindowFetches(10)
        .setAvgSignalYield(1.0)
        .setDominantSignalType(SignalType.informative)
        .setTypeCounts(Map.of("informative", 10L))
        .setRecentPublishedAt(published)
        .setPublishIntervalAvg(gap.toMillis())
        .setChangeRate(1.0)
        .setUpdatedAt(updatedAt)
        .build();
  }
}
