package io.freshet.scheduler.schedule;

import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Polling while a source's WebSub subscription is live (ADR 0015, "Polling relaxes while push is
 * live") — pure, tested without a database ({@code PushRulesTest}).
 *
 * <p>While push is live (the receiver said {@code subscription_live} and the granted lease has not
 * ended), a successful poll ({@code ok}, {@code partial}, {@code not_modified}) schedules the next
 * one only as a safety net: {@code safety-net-interval} after the fetch in cadence-model time
 * ({@link CadenceTimeScale}), never sooner than the cadence (and the server's rules, and so the
 * tier's minimum) already said, and no later than the lease's end, so a subscription that lapses
 * without a word from the receiver is polled again when it ends. Failures keep their back-off, a
 * fetch-now asked during the flight stays due now.
 *
 * <p>The source returns to its normal cadence — its live mark is cleared, and the caller counts it
 * — when the lease has ended ({@code expired}), or when a successful poll found new or changed
 * items that no notification announced ({@code unannounced}: no notification asked for the fetch
 * and none arrived since the previous fetch). The hub evidently does not tell us everything; the
 * next {@code subscription_live} (a renewal verified) makes push live again. A {@code
 * subscription_ended} from the receiver (denied, unsubscribed, expired) is the third way back
 * ({@link #afterEnded}). New stats recompute a row's due time from its cadence, never sooner than
 * the safety net while push is live ({@link #afterStats}).
 */
public final class PushRules {

  /**
   * What the row says of push.
   *
   * @param liveUntil the end of the live subscription's lease; null when none is live
   * @param receivedAt the latest notification turned into a fetch-now; null when none
   * @param claimedForPush whether a notification asked for the claim in flight (its {@code
   *     claim_trigger} is {@code push})
   */
  public record PushState(Instant liveUntil, Instant receivedAt, boolean claimedForPush) {
    public static final PushState NONE = new PushState(null, null);

    /** What the row says of push, for a claim no notification asked for. */
    public PushState(Instant liveUntil, Instant receivedAt) {
      this(liveUntil, receivedAt, false);
    }
  }

  /** What push does to an applied outcome. */
  public sealed interface Verdict permits Unchanged, Relaxed, Returned {}

  /** Push is not live, or the outcome is not a successful poll: the outcome stands. */
  public record Unchanged() implements Verdict {}

  /**
   * Push is live: the outcome with the safety net's due time.
   *
   * @param apply the outcome with its new due time
   * @param saved whether the due time moved later than the cadence's (a poll saved)
   */
  public record Relaxed(OutcomeRules.Apply apply, boolean saved) implements Verdict {}

  /**
   * Push was live and no longer counts: clear the live mark; the outcome (the normal cadence)
   * stands.
   *
   * @param reason {@code expired} or {@code unannounced}
   */
  public record Returned(String reason) implements Verdict {}

  public static final String EXPIRED = "expired";
  public static final String UNANNOUNCED = "unannounced";

  private final Duration safetyNet;
  private final CadenceTimeScale time;

  /**
   * @param safetyNet the polling interval while push is live, in cadence-model time
   * @param time the cadence model's clock
   */
  public PushRules(Duration safetyNet, CadenceTimeScale time) {
    this.safetyNet = Objects.requireNonNull(safetyNet, "safetyNet");
    this.time = Objects.requireNonNull(time, "time");
  }

  /** Whether push is live for a row at {@code now}. */
  public static boolean live(PushState push, Instant now) {
    return push.liveUntil() != null && push.liveUntil().isAfter(now);
  }

  /**
   * What push does to an outcome {@link OutcomeRules} applied.
   *
   * @param row the row before the outcome (its cursor holds the previous fetch's time)
   */
  public Verdict afterOutcome(
      ScheduleRow row,
      PushState push,
      FetchCompleted event,
      OutcomeRules.Apply apply,
      Instant now) {
    if (push.liveUntil() == null) {
      return new Unchanged();
    }
    if (!push.liveUntil().isAfter(now)) {
      return new Returned(EXPIRED);
    }
    FetchStatus status = event.getStatus();
    if (status != FetchStatus.ok
        && status != FetchStatus.partial
        && status != FetchStatus.not_modified) {
      return new Unchanged();
    }
    if (status != FetchStatus.not_modified
        && foundNew(event)
        && !announced(push, SnapshotMapper.lastFetchAt(row.cursorJson()))) {
      return new Returned(UNANNOUNCED);
    }
    if (row.manualRequested()) {
      return new Unchanged(); // a fetch-now (a newer notification) asked during the flight
    }
    Instant safetyDue = time.toWall(time.toModel(apply.outcomeAt()).plus(safetyNet));
    Instant capped = safetyDue.isAfter(push.liveUntil()) ? push.liveUntil() : safetyDue;
    if (!capped.isAfter(apply.nextDue())) {
      return new Relaxed(apply, false);
    }
    return new Relaxed(
        apply.then(capped, apply.facts(), apply.move(), apply.disabledReason(), apply.heldBy()),
        true);
  }

  /**
   * The due time of a source whose subscription ended: back to what its cadence says now ({@code
   * normalDue}, {@link NextDue#recompute}) if that is sooner than the safety net's, unless a claim
   * holds it (its outcome schedules it, push no longer live).
   */
  public static Instant afterEnded(ScheduleRow row, Instant normalDue, Instant now) {
    if (row.leaseUntil() != null && row.leaseUntil().isAfter(now)) {
      return row.nextDueAt();
    }
    if (row.nextDueAt() == null || normalDue.isBefore(row.nextDueAt())) {
      return normalDue;
    }
    return row.nextDueAt();
  }

  /**
   * The due time of a row whose stats changed: what its cadence says now ({@code normalDue}, {@link
   * NextDue#recompute}), unless push is live and the row is due later — the safety net an outcome
   * set stands, since while push is live a poll is only a safety net. New stats follow every fetch,
   * so without this the stats' recomputation would undo every relaxed poll. A fetch-now pending is
   * the caller's (due now).
   */
  public static Instant afterStats(
      ScheduleRow row, PushState push, Instant normalDue, Instant now) {
    if (live(push, now) && row.nextDueAt() != null && row.nextDueAt().isAfter(normalDue)) {
      return row.nextDueAt();
    }
    return normalDue;
  }

  /**
   * How many new or changed items a fetch emitted: its digests not marked {@code seen}, or its
   * {@code item_count} when it sent no digests.
   */
  public static int newItems(FetchCompleted event) {
    if (event.getItems().isEmpty()) {
      return Math.max(0, event.getItemCount());
    }
    int n = 0;
    for (ItemDigest item : event.getItems()) {
      if (item.getNovelty() != ItemNovelty.seen) {
        n++;
      }
    }
    return n;
  }

  /** Whether a fetch read an item it had not emitted before, or one that changed. */
  static boolean foundNew(FetchCompleted event) {
    return newItems(event) > 0;
  }

  /**
   * Whether what this fetch found was announced: a notification asked for this fetch, or one
   * arrived since the previous fetch (the one before this outcome) ended. A first fetch has nothing
   * to compare with: announced. The first test matters for a notification that arrives while a
   * fetch is in flight: it is older than that fetch's end, yet it asked for the next fetch, which
   * finds what it announced.
   */
  static boolean announced(PushState push, Instant previousFetchAt) {
    if (push.claimedForPush() || previousFetchAt == null) {
      return true;
    }
    return push.receivedAt() != null && push.receivedAt().isAfter(previousFetchAt);
  }
}
