package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.PushRules;
import io.freshet.scheduler.schedule.ScheduleBatches;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.schemas.avro.SourceStats;
import io.freshet.schemas.serde.PoisonRecordException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Stores sources' latest {@code SourceStats} on their rows (denormalised, as the signal-adaptive
 * note asks: computing cadence reads only the row) and recomputes their next due times, a poll at a
 * time in one transaction of two statements ({@link ScheduleBatches}): lock the poll's rows, then
 * store the stats and the due times computed from the rows as they will be with them ({@link
 * ScheduleRow#withStats}), one new version of each row (issue 24: a second statement for the due
 * times wrote every row twice, the second version never HOT since {@code next_due_at} is indexed).
 * A row whose stats and due time would come out as they are is not written. Older stats than the
 * stored ones (redelivery, compaction replays) change nothing and the source is not rescheduled;
 * within a poll, a source's records count in order, each against the stats the one before left, so
 * its last record of the newest {@code updated_at} is the one stored. A source with a fetch in
 * flight keeps its due time (the outcome will schedule it); a pending fetch-now keeps it due now;
 * while push is live a safety-net due time later than the cadence's stands ({@link
 * PushRules#afterStats}).
 */
@Component
public class StatsApplier {

  private final ScheduleBatches schedule;
  private final TransactionTemplate tx;
  private final NextDue nextDue;
  private final Clock clock;

  StatsApplier(ScheduleBatches schedule, TransactionTemplate tx, NextDue nextDue, Clock clock) {
    this.schedule = schedule;
    this.tx = tx;
    this.nextDue = nextDue;
    this.clock = clock;
  }

  /**
   * Returns true when the stats were newer than the stored ones and were stored.
   *
   * @throws PoisonRecordException when the source id is malformed
   */
  public boolean apply(SourceStats stats) {
    return applyAll(List.of(stats)).getFirst().orThrow();
  }

  /**
   * Applies a poll's stats in one transaction; a record whose source id is malformed is poison (its
   * verdict says so) and the others are applied.
   *
   * @return per record, whether it was stored (false: older than the stored ones, or no such
   *     source)
   */
  public List<Verdict<Boolean>> applyAll(List<SourceStats> all) {
    int n = all.size();
    List<Verdict<Boolean>> verdicts = new ArrayList<>(Collections.nCopies(n, null));
    UUID[] ids = new UUID[n];
    Set<UUID> distinct = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      try {
        ids[i] = OutcomeApplier.parseId(all.get(i).getSourceId());
        distinct.add(ids[i]);
      } catch (PoisonRecordException e) {
        verdicts.set(i, Verdict.poison(e));
      }
    }
    tx.executeWithoutResult(
        status -> {
          Instant now = clock.instant();
          Map<UUID, ScheduleRepository.Locked> locked = schedule.lockWithPush(distinct);
          Map<UUID, ScheduleRow> rows = new HashMap<>();
          locked.forEach((id, l) -> rows.put(id, l.row()));
          Map<UUID, Instant> stored = new HashMap<>();
          rows.values().forEach(r -> stored.put(r.id(), r.statsUpdatedAt()));
          Map<UUID, SourceStats> latest = new LinkedHashMap<>();
          for (int i = 0; i < n; i++) {
            if (ids[i] == null) {
              continue;
            }
            Instant updatedAt = all.get(i).getUpdatedAt();
            boolean newer =
                rows.containsKey(ids[i])
                    && (stored.get(ids[i]) == null || !stored.get(ids[i]).isAfter(updatedAt));
            if (newer) {
              stored.put(ids[i], updatedAt);
              latest.put(ids[i], all.get(i));
            }
            verdicts.set(i, Verdict.of(newer));
          }
          List<ScheduleBatches.StatsWrite> writes = new ArrayList<>();
          for (var e : latest.entrySet()) {
            ScheduleRow before = rows.get(e.getKey());
            ScheduleRow after = before.withStats(e.getValue());
            boolean reschedule = after.leaseUntil() == null || !after.leaseUntil().isAfter(now);
            if (reschedule) {
              after =
                  after.withNextDueAt(
                      after.manualRequested()
                          ? now
                          : PushRules.afterStats(
                              after,
                              locked.get(e.getKey()).push(),
                              nextDue.recompute(after, now),
                              now));
            }
            if (!after.equals(before)) {
              writes.add(new ScheduleBatches.StatsWrite(after, reschedule));
            }
          }
          schedule.storeStats(writes, now);
        });
    return verdicts;
  }
}
