package io.freshet.scheduler.outcomes;

import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.PushRules;
import io.freshet.scheduler.schedule.ScheduleBatches;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.freshet.scheduler.schedule.ScheduleRow;
import io.freshet.schemas.avro.PushReceived;
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
 * Applies the push receiver's events ({@code freshet.push.received.v1}), a poll at a time in one
 * transaction ({@link PushReceivedListener} says what each kind does).
 *
 * <p>Notifications come with new content: a hub announces every item a source publishes, so in the
 * new-content regime of the steady benchmark they were about one record in five fetches, each its
 * own transaction of one statement and a commit (issue 24, ADR 0018). A poll's rows are now locked
 * with one statement in id order (as the outcome and stats listeners lock theirs, so the three
 * cannot deadlock), each notification decided in the poll's order against the row as the ones
 * before it left it — applied when the source exists, is enabled and the notification is newer than
 * the last one applied — and the fetch-nows of a run of notifications stored with one {@code UPDATE
 * … FROM unnest} ({@link ScheduleBatches#requestPushedFetches}): a source's later notification in
 * the same run only moves {@code push_received_at} further, which is what applying them one after
 * another did. Subscription events are few and keep their one-row statements; the run of
 * notifications before one is stored first, so the event reads the row as it would have.
 */
@Component
public class PushApplier {

  /**
   * What became of one event, for the counters (incremented after the commit).
   *
   * @param kind {@code notification}, {@code live}, {@code ended} or {@code unknown}
   * @param applied whether it changed the row (a notification: it requested a fetch)
   * @param liveBefore {@code ended} only: the live mark it cleared, or null
   */
  public record Applied(String kind, boolean applied, Instant liveBefore) {}

  private final ScheduleBatches batches;
  private final ScheduleRepository schedule;
  private final NextDue nextDue;
  private final TransactionTemplate tx;
  private final Clock clock;

  PushApplier(
      ScheduleBatches batches,
      ScheduleRepository schedule,
      NextDue nextDue,
      TransactionTemplate tx,
      Clock clock) {
    this.batches = batches;
    this.schedule = schedule;
    this.nextDue = nextDue;
    this.tx = tx;
    this.clock = clock;
  }

  /**
   * Applies a poll's events in one transaction; a record whose source id is malformed is poison
   * (its verdict says so) and the others are applied. An outage or a statement the database refuses
   * throws, and nothing is stored.
   *
   * @return the verdict of each event, in order
   */
  public List<Verdict<Applied>> applyAll(List<PushReceived> events) {
    int n = events.size();
    List<Verdict<Applied>> verdicts = new ArrayList<>(Collections.nCopies(n, null));
    UUID[] ids = new UUID[n];
    Set<UUID> distinct = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      try {
        ids[i] = OutcomeApplier.parseId(events.get(i).getSourceId());
        distinct.add(ids[i]);
      } catch (PoisonRecordException e) {
        verdicts.set(i, Verdict.poison(e));
      }
    }
    tx.executeWithoutResult(status -> applyLocked(events, ids, distinct, verdicts));
    return verdicts;
  }

  private void applyLocked(
      List<PushReceived> events, UUID[] ids, Set<UUID> distinct, List<Verdict<Applied>> verdicts) {
    Instant now = clock.instant();
    Map<UUID, ScheduleBatches.PushedRow> rows = batches.lockPushed(distinct);
    // A source's push_received_at as the poll's notifications so far have left it, to decide the
    // next one; and its newest notification of the current run, to store.
    Map<UUID, Instant> last = new HashMap<>();
    rows.forEach((id, row) -> last.put(id, row.pushReceivedAt()));
    Map<UUID, Instant> run = new LinkedHashMap<>();
    for (int i = 0; i < events.size(); i++) {
      if (ids[i] == null) {
        continue;
      }
      PushReceived event = events.get(i);
      UUID id = ids[i];
      switch (event.getKind()) {
        case notification -> {
          ScheduleBatches.PushedRow row = rows.get(id);
          Instant received = event.getReceivedAt();
          Instant before = last.get(id);
          boolean requested =
              row != null && row.enabled() && (before == null || before.isBefore(received));
          if (requested) {
            last.put(id, received);
            run.put(id, received);
          }
          verdicts.set(i, Verdict.of(new Applied("notification", requested, null)));
        }
        case subscription_live -> {
          store(run, now);
          Instant until = event.getLeaseExpiresAt();
          boolean stored =
              until != null
                  && schedule.storePushSubscription(id, until, event.getReceivedAt(), now);
          verdicts.set(i, Verdict.of(new Applied("live", stored, null)));
        }
        case subscription_ended -> {
          store(run, now);
          verdicts.set(i, Verdict.of(ended(id, event.getReceivedAt(), now)));
        }
        default -> verdicts.set(i, Verdict.of(new Applied("unknown", false, null)));
      }
    }
    store(run, now);
  }

  /** Stores the run's fetch-nows and starts a new run. */
  private void store(Map<UUID, Instant> run, Instant now) {
    if (run.isEmpty()) {
      return;
    }
    List<ScheduleBatches.PushedFetch> fetches = new ArrayList<>(run.size());
    run.forEach((id, at) -> fetches.add(new ScheduleBatches.PushedFetch(id, at)));
    batches.requestPushedFetches(fetches, now);
    run.clear();
  }

  /** Clears the live mark and brings the due time back to the cadence's. */
  private Applied ended(UUID id, Instant at, Instant now) {
    var locked = schedule.lockWithPush(id).orElse(null);
    if (locked == null) {
      return new Applied("ended", false, null);
    }
    ScheduleRow row = locked.row();
    PushRules.PushState before = locked.push();
    if (!schedule.storePushSubscription(id, null, at, now)) {
      return new Applied("ended", false, null);
    }
    if (PushRules.live(before, now)) {
      Instant due = PushRules.afterEnded(row, nextDue.recompute(row, now), now);
      if (due != null && !due.equals(row.nextDueAt())) {
        schedule.setNextDue(id, due, now);
      }
    }
    return new Applied("ended", true, before.liveUntil());
  }
}
