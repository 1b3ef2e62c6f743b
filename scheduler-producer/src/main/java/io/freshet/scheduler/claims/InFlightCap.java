package io.freshet.scheduler.claims;

import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Keeps {@code max-in-flight} a cap across every instance and claim thread, not per round.
 *
 * <p>A claim's leases become visible to other transactions only when it commits, after the broker
 * acknowledged its requests, so counting leases alone lets concurrent rounds each see room for a
 * whole batch. Instead a round first <em>reserves</em> room in a short transaction of its own,
 * serialised by an advisory lock: committed leases plus every live reservation are counted, and the
 * room left (at most a batch) is recorded as a reservation. The claim transaction deletes its
 * reservation in the same commit that makes its leases visible, so a claim in progress is counted
 * exactly once. A round that rolls back releases its reservation afterwards; one left by a crashed
 * process expires after {@code send-timeout} plus a minute. Only the reservation is serialised —
 * the claims themselves still run side by side. {@code max-in-flight} 2147483647 means no cap:
 * rounds then reserve nothing and count nothing.
 */
public class InFlightCap {

  /** The advisory lock key of the reservation step ("freshet" in ASCII, then 1). */
  static final long LOCK_KEY = 0x6672657368657401L;

  private static final String COUNT =
      """
      SELECT (SELECT count(*) FROM scheduler.sources
               WHERE lease_until IS NOT NULL AND lease_until > :now)
           + (SELECT coalesce(sum(sources), 0) FROM scheduler.claim_reservations)
      """;

  private final JdbcClient jdbc;
  private final TransactionTemplate tx;
  private final int maxInFlight;
  private final Duration reservationLifetime;

  public InFlightCap(
      JdbcClient jdbc, TransactionTemplate tx, int maxInFlight, Duration sendTimeout) {
    this.jdbc = jdbc;
    this.tx = tx;
    this.maxInFlight = maxInFlight;
    this.reservationLifetime = sendTimeout.plusMinutes(1);
  }

  /**
   * Room for up to {@code wanted} more leases; {@link Reservation#NONE} when the cap is reached.
   * Runs in its own transaction: call it before the claim transaction begins.
   */
  public Reservation reserve(int wanted, Instant now) {
    if (wanted <= 0) {
      return Reservation.NONE;
    }
    if (maxInFlight == Integer.MAX_VALUE) {
      // No cap: nothing to count. Counting would read every lease for every round, which after an
      // outage is the whole backlog (docs/benchmarks/scheduler-producer.md, "10 million sources").
      return new Reservation(null, wanted);
    }
    return tx.execute(
        status -> {
          jdbc.sql("SELECT pg_advisory_xact_lock(:key)")
              .param("key", LOCK_KEY)
              .query((rs, i) -> 0)
              .single();
          jdbc.sql("DELETE FROM scheduler.claim_reservations WHERE expires_at <= :now")
              .param("now", Timestamp.from(now))
              .update();
          long used = jdbc.sql(COUNT).param("now", Timestamp.from(now)).query(Long.class).single();
          int room = (int) Math.min(wanted, Math.max(0, maxInFlight - used));
          if (room == 0) {
            return Reservation.NONE;
          }
          UUID id = UUID.randomUUID();
          jdbc.sql(
                  "INSERT INTO scheduler.claim_reservations (id, sources, expires_at)"
                      + " VALUES (:id, :sources, :expires)")
              .param("id", id)
              .param("sources", room)
              .param("expires", Timestamp.from(now.plus(reservationLifetime)))
              .update();
          return new Reservation(id, room);
        });
  }

  /**
   * Deletes the reservation: inside the claim transaction (it goes as the leases arrive), and again
   * after a rollback (then it is still there). Deleting one already gone does nothing.
   */
  public void release(Reservation reservation) {
    if (reservation.id() == null) {
      return;
    }
    jdbc.sql("DELETE FROM scheduler.claim_reservations WHERE id = :id")
        .param("id", reservation.id())
        .update();
  }

  /**
   * Room reserved under the cap.
   *
   * @param id the reservation's row; null for {@link #NONE}
   * @param room how many sources the claim may lease
   */
  public record Reservation(UUID id, int room) {
    /** No room. */
    public static final Reservation NONE = new Reservation(null, 0);
  }
}
