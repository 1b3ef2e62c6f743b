package io.freshet.scheduler.claims;

import io.freshet.cadence.source.Outcome;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.ClaimedSource;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleRepository;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * One claim transaction: claim due sources, produce their requests, wait for the broker's acks,
 * commit. If producing fails the transaction rolls back — no lease, no epoch bump — and the same
 * sources are claimed by a later round. Row locks are held only for this transaction, never during
 * a fetch.
 *
 * <p>Error isolation (ADR 0007 (docs/adr/0007-due-selection-in-sql-with-skip-locked.md)): a source
 * whose request can never be sent (e.g. too large) is set aside in the same transaction — its claim
 * released, the error recorded, a backoff applied — and the others go out.
 */
@Component
public class ClaimRound {

  private static final Logger log = LoggerFactory.getLogger(ClaimRound.class);

  private final ScheduleRepository schedule;
  private final NextDue nextDue;
  private final FetchRequestPublisher publisher;
  private final TransactionTemplate tx;
  private final SchedulerProperties props;
  private final Clock clock;
  private final Counter claimed;
  private final Counter emitted;
  private final Counter setAside;
  private final Timer latency;
  private final Timer selectPhase;
  private final Timer serializePhase;
  private final Timer publishPhase;
  private final InFlightCap cap;

  public ClaimRound(
      ScheduleRepository schedule,
      NextDue nextDue,
      FetchRequestPublisher publisher,
      JdbcClient jdbc,
      TransactionTemplate tx,
      SchedulerProperties props,
      Clock clock,
      MeterRegistry meters) {
    this.schedule = schedule;
    this.nextDue = nextDue;
    this.publisher = publisher;
    this.tx = tx;
    this.props = props;
    this.clock = clock;
    this.claimed =
        Counter.builder("freshet.scheduler.sources.claimed")
            .description("Sources claimed")
            .register(meters);
    this.emitted =
        Counter.builder("freshet.scheduler.requests.emitted")
            .description("FetchRequested acknowledged by the broker")
            .register(meters);
    this.setAside =
        Counter.builder("freshet.scheduler.requests.set.aside")
            .description("Claimed sources whose request could not be built or sent")
            .register(meters);
    this.latency =
        Timer.builder("freshet.scheduler.claim.latency")
            .description("One claim transaction: select, lease, produce, ack, commit")
            .register(meters);
    this.selectPhase = phase(meters, "claim");
    this.serializePhase = phase(meters, "serialize");
    this.publishPhase = phase(meters, "publish");
    this.cap = new InFlightCap(jdbc, tx, props.maxInFlight(), props.sendTimeout());
  }

  /**
   * Claims up to one batch of due sources, within the in-flight cap across all instances ({@link
   * InFlightCap}). Returns how many sources were claimed (0 when nothing was due or the cap is
   * reached).
   */
  public int claimDue() {
    InFlightCap.Reservation room = cap.reserve(props.batchSize(), clock.instant());
    if (room.room() == 0) {
      return 0;
    }
    try {
      return run(
          (now, leaseEnd) -> {
            cap.release(room); // goes in the commit that makes the leases visible
            return schedule.claimDue(now, room.room(), leaseEnd);
          });
    } catch (RuntimeException e) {
      releaseAfterRollback(room, e);
      throw e;
    }
  }

  private void releaseAfterRollback(InFlightCap.Reservation room, RuntimeException cause) {
    try {
      cap.release(room);
    } catch (RuntimeException e) {
      cause.addSuppressed(e); // the reservation expires by itself
    }
  }

  /**
   * Claims the given sources for a batch run at {@code windowEnd} (see {@code BatchRunService}).
   */
  public int claimIds(Collection<UUID> ids, Instant windowEnd) {
    return run((now, leaseEnd) -> schedule.claimIds(ids, windowEnd, now, leaseEnd));
  }

  private int run(BiFunction<Instant, Instant, List<ClaimedSource>> claim) {
    long t0 = System.nanoTime();
    // Millisecond precision, as on the wire: the lease stored is exactly the request's not_after.
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Instant leaseEnd = now.plus(props.leaseDuration());
    int[] counts =
        tx.execute(
            status -> {
              long s0 = System.nanoTime();
              List<ClaimedSource> sources = claim.apply(now, leaseEnd);
              long s1 = System.nanoTime();
              selectPhase.record(Duration.ofNanos(s1 - s0));
              if (sources.isEmpty()) {
                return new int[] {0, 0, 0};
              }
              List<FetchRequestPublisher.Keyed> requests = new ArrayList<>(sources.size());
              int asideCount = 0;
              for (ClaimedSource s : sources) {
                try {
                  byte[] value = publisher.serialize(FetchRequestFactory.create(s, now, leaseEnd));
                  requests.add(new FetchRequestPublisher.Keyed(s.host(), value));
                } catch (IllegalArgumentException e) {
                  setAside(s, e.getMessage(), now);
                  asideCount++;
                }
              }
              long s2 = System.nanoTime();
              serializePhase.record(Duration.ofNanos(s2 - s1));
              // Acknowledged before the claim commits; a failure here rolls it back.
              publisher.publishAll(requests, props.sendTimeout());
              publishPhase.record(Duration.ofNanos(System.nanoTime() - s2));
              return new int[] {sources.size(), requests.size(), asideCount};
            });
    latency.record(Duration.ofNanos(System.nanoTime() - t0));
    if (counts == null || counts[0] == 0) {
      return 0;
    }
    claimed.increment(counts[0]);
    emitted.increment(counts[1]);
    setAside.increment(counts[2]);
    return counts[0];
  }

  private static Timer phase(MeterRegistry meters, String phase) {
    return Timer.builder("freshet.scheduler.claim.phase")
        .description("Time per claim transaction in each phase (the SQL claim, Avro, send + acks)")
        .tag("phase", phase)
        .register(meters);
  }

  /**
   * Releases the claim of a source whose request can never be sent, and backs it off the way the
   * cadence module backs off any failure (tier minimum, floor and ceiling included).
   */
  private void setAside(ClaimedSource s, String reason, Instant now) {
    log.warn("source {}: request set aside: {}", s.id(), reason);
    schedule
        .lock(s.id()) // already locked by the claim, in this transaction
        .ifPresent(
            row ->
                schedule.setAside(
                    s.id(),
                    "cannot request: " + reason,
                    row.consecutiveMisses() + 1,
                    nextDue.afterOutcome(row, new Outcome.Failure(now, null), now),
                    now));
  }
}
