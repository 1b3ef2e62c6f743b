package io.freshet.scheduler.outcomes;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleBatches;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.testing.SchedulerItSupport;
import io.freshet.schemas.avro.PushEventKind;
import io.freshet.schemas.avro.PushReceived;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A poll of push events applied in one transaction ({@link PushApplier}) leaves every row as the
 * one-record statements did, applied one event per transaction in the poll's order: each source has
 * a twin row, identical, the poll goes to the originals whole and to the twins one event at a time
 * — notifications through the unchanged {@link ScheduleRepository#requestPushedFetch} — and every
 * column of each pair must match afterwards, {@code updated_at} included, as must each event's
 * verdict. Seeded random polls mix repeats of a source (older, as old, newer), disabled, unknown,
 * leased and already-due sources, and subscription events between a source's notifications.
 */
class PushBatchIT extends SchedulerItSupport {

  private static final String HOURLY = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";

  @Autowired ScheduleBatches batches;
  @Autowired ScheduleRepository schedule;
  @Autowired NextDue nextDue;
  @Autowired TransactionTemplate tx;
  @Autowired JdbcTemplate jdbcTemplate;

  private final Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

  @Test
  void aPollAppliedWholeLeavesTheRowsAndVerdictsOfItsEventsAppliedOneByOne() {
    for (long seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      Map<UUID, UUID> twins = new HashMap<>();
      List<UUID> sources = new ArrayList<>();
      for (int s = 0; s < 5; s++) {
        UUID id = randomSource(random);
        sources.add(id);
        twins.put(id, twin(id));
      }
      List<PushReceived> poll = new ArrayList<>();
      for (int e = 0; e < 14; e++) {
        UUID id =
            random.nextInt(20) == 0
                ? UUID.randomUUID()
                : sources.get(random.nextInt(sources.size()));
        twins.putIfAbsent(id, UUID.randomUUID()); // an unknown source has an unknown twin
        poll.add(randomEvent(random, id));
      }

      List<PushApplier.Applied> whole = results(applier().applyAll(poll));
      List<PushApplier.Applied> oneByOne = new ArrayList<>();
      for (PushReceived event : poll) {
        oneByOne.add(oneRecord(forSource(event, twins.get(UUID.fromString(event.getSourceId())))));
      }

      assertThat(whole).as("seed %d: verdicts", seed).isEqualTo(oneByOne);
      for (UUID id : sources) {
        assertThat(row(id)).as("seed %d: source %s", seed, id).isEqualTo(row(twins.get(id)));
      }
    }
  }

  @Test
  void aSourcesNotificationsInOnePollWriteItsRowOnceWithTheNewest() {
    UUID id = source().nextDueAt(now.plus(Duration.ofHours(2))).insert();
    UUID other = source().nextDueAt(now.plus(Duration.ofHours(2))).insert();
    List<PushReceived> poll =
        List.of(
            notification(id, now),
            notification(other, now),
            notification(id, now.plusSeconds(2)),
            notification(id, now.plusSeconds(1)),
            notification(id, now.plusSeconds(2)));

    long[] updated = new long[1];
    List<PushApplier.Applied> applied =
        tx.execute(
            status -> {
              long before = rowsUpdated();
              List<PushApplier.Applied> r = results(applier().applyAll(poll));
              updated[0] = rowsUpdated() - before;
              return r;
            });

    assertThat(applied)
        .extracting(PushApplier.Applied::applied)
        .containsExactly(true, true, true, false, false);
    assertThat(updated[0]).as("one row version per source").isEqualTo(2);
    assertThat(instantColumn(id, "push_received_at")).isEqualTo(now.plusSeconds(2));
    assertThat(instantColumn(id, "next_due_at")).isEqualTo(now);
    assertThat(column(id, "push_requested", Boolean.class)).isTrue();
  }

  private PushApplier applier() {
    return new PushApplier(batches, schedule, nextDue, tx, Clock.fixed(now, ZoneOffset.UTC));
  }

  /** One event in its own transaction, as the one-record listener applied it. */
  private PushApplier.Applied oneRecord(PushReceived event) {
    if (event.getKind() == PushEventKind.notification) {
      boolean requested =
          tx.execute(
              status ->
                  schedule
                      .requestPushedFetch(
                          UUID.fromString(event.getSourceId()), event.getReceivedAt(), now)
                      .isPresent());
      return new PushApplier.Applied("notification", requested, null);
    }
    return applier().applyAll(List.of(event)).getFirst().orThrow();
  }

  private static List<PushApplier.Applied> results(List<Verdict<PushApplier.Applied>> verdicts) {
    return verdicts.stream().map(Verdict::orThrow).toList();
  }

  private long rowsUpdated() {
    return jdbcTemplate.queryForObject(
        "SELECT coalesce(sum(n_tup_upd), 0) FROM pg_stat_xact_user_tables"
            + " WHERE relid = 'scheduler.sources'::regclass",
        Long.class);
  }

  private UUID randomSource(Random random) {
    Instant due = random.nextBoolean() ? now.minusSeconds(30) : now.plus(Duration.ofMinutes(40));
    UUID id =
        source()
            .config(HOURLY)
            .cursor("{\"last_fetch_at\":\"" + now.minus(Duration.ofMinutes(30)) + "\"}")
            .enabled(random.nextInt(6) != 0)
            .nextDueAt(due)
            .insert();
    Instant lease =
        switch (random.nextInt(3)) {
          case 0 -> null;
          case 1 -> now.plus(Duration.ofMinutes(5));
          default -> now.minusSeconds(5);
        };
    jdbc.sql(
            "UPDATE scheduler.sources SET lease_until = :lease, push_received_at = :received,"
                + " push_live_until = :live, push_state_at = :state WHERE id = :id")
        .param("lease", ts(lease))
        .param("received", ts(random.nextBoolean() ? null : received(random)))
        .param("live", ts(random.nextBoolean() ? null : now.plus(Duration.ofDays(1))))
        .param("state", ts(random.nextBoolean() ? null : received(random)))
        .param("id", id)
        .update();
    return id;
  }

  private UUID twin(UUID id) {
    UUID twin = UUID.randomUUID();
    jdbc.sql(
            "INSERT INTO scheduler.sources SELECT (jsonb_populate_record(NULL::scheduler.sources,"
                + " to_jsonb(s) || jsonb_build_object('id', CAST(:twin AS text)))).*"
                + " FROM scheduler.sources s WHERE s.id = :id")
        .param("twin", twin.toString())
        .param("id", id)
        .update();
    return twin;
  }

  /** Every column of the row but its id. */
  private String row(UUID id) {
    return jdbc.sql("SELECT (to_jsonb(s) - 'id')::text FROM scheduler.sources s WHERE s.id = :id")
        .param("id", id)
        .query(String.class)
        .single();
  }

  private Instant received(Random random) {
    return now.plusSeconds(random.nextInt(5) - 2);
  }

  private PushReceived randomEvent(Random random, UUID id) {
    int kind = random.nextInt(10);
    if (kind < 7) {
      return notification(id, received(random));
    }
    return event(
            id,
            received(random),
            kind < 8 ? PushEventKind.subscription_live : PushEventKind.subscription_ended)
        .setLeaseExpiresAt(kind < 8 && random.nextBoolean() ? now.plus(Duration.ofDays(2)) : null)
        .setReason(kind < 8 ? null : "denied")
        .build();
  }

  private PushReceived notification(UUID id, Instant at) {
    return event(id, at, PushEventKind.notification).build();
  }

  private PushReceived.Builder event(UUID id, Instant at, PushEventKind kind) {
    return PushReceived.newBuilder()
        .setSourceId(id.toString())
        .setTenantId(tenant)
        .setSubscriptionId("sub-1")
        .setReceivedAt(at)
        .setHub("https://hub.example/")
        .setKind(kind);
  }

  private static PushReceived forSource(PushReceived event, UUID id) {
    return PushReceived.newBuilder(event).setSourceId(id.toString()).build();
  }

  private static Timestamp ts(Instant instant) {
    return instant == null ? null : Timestamp.from(instant);
  }
}
