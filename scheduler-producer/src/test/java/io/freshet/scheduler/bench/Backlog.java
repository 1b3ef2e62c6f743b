package io.freshet.scheduler.bench;

import io.freshet.scheduler.claims.ClaimRound;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The backlog a scheduler restart meets ({@code claim-benchmark.sh --backlog}): {@code size}
 * sources on an interval cadence of {@code cadenceMinutes}, whose due times were spread evenly over
 * one cadence period when the scheduler stopped {@code downMinutes} ago — the steady state of an
 * interval schedule. Every source whose due time fell inside the outage is due at the restart: with
 * hourly cadences and an hour down, all of them. Then {@code threads} claim loops run as the
 * restarted instance's would (the production {@link ClaimRound}: in-flight reservation, SQL claim,
 * Avro, acks=all sends, commit after the acks; a tick's pause after a round that came back short,
 * as {@code ClaimLoop} does), until as many claims as there were due sources were emitted and
 * acknowledged, or {@code maxSeconds} passed. Every 10 s it prints the claims made and where the
 * claim threads' time went.
 *
 * <p>With an in-flight cap, leases are released only by answers: {@code answer} runs one thread
 * that answers every lease as soon as it is committed (one SQL statement per 500: lease released,
 * next due in one cadence period), the best case of workers and outcome listeners, so the cap's own
 * cost is what is measured. Real workers answer at their fetch rate, and a capped drain then goes
 * at that rate.
 */
final class Backlog {

  private final DataSource ds;
  private final JdbcClient jdbc;
  private final ClaimRound round;
  private final SimpleMeterRegistry meters;
  private final int size;
  private final int cadenceMinutes;
  private final int downMinutes;
  private final int threads;
  private final int batch;
  private final int maxInFlight;
  private final boolean answer;
  private final int maxSeconds;
  private final TransactionTemplate tx;

  Backlog(
      DataSource ds,
      JdbcClient jdbc,
      TransactionTemplate tx,
      ClaimRound round,
      SimpleMeterRegistry meters,
      int size,
      int cadenceMinutes,
      int downMinutes,
      int threads,
      int batch,
      int maxInFlight,
      boolean answer,
      int maxSeconds) {
    this.ds = ds;
    this.jdbc = jdbc;
    this.tx = tx;
    this.round = round;
    this.meters = meters;
    this.size = size;
    this.cadenceMinutes = cadenceMinutes;
    this.downMinutes = downMinutes;
    this.threads = threads;
    this.batch = batch;
    this.maxInFlight = maxInFlight;
    this.answer = answer;
    this.maxSeconds = maxSeconds;
  }

  void run() throws Exception {
    long periodMs = cadenceMinutes * 60_000L;
    // Source g's due time is its offset in the cadence period after the stop; 7919 is prime and
    // shares no factor with the period in ms, so neighbouring rows are due at unrelated times.
    ClaimBenchmark.bulkFill(
        ds,
        jdbc,
        size,
        "now() - interval '%d minutes' + ((g::bigint * 7919) %% %d) * interval '1 millisecond'"
            .formatted(downMinutes, periodMs),
        cadenceMinutes);
    long due =
        jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE enabled AND next_due_at <= now()")
            .query(Long.class)
            .single();
    System.out.printf(
        "backlog: %,d sources, interval %d min, due times spread over one period, scheduler down"
            + " %d min: %,d due at the restart%n",
        size, cadenceMinutes, downMinutes, due);
    System.out.printf(
        "restart: %d claim thread(s), batch %d, max-in-flight %s, answers %s, load %s%n",
        threads,
        batch,
        maxInFlight == Integer.MAX_VALUE ? "lifted" : String.format("%,d", maxInFlight),
        answer ? "instant (simulated workers)" : "none",
        ClaimBenchmark.load());
    ClaimBenchmark.explain(jdbc, tx, batch);

    var claimed = new AtomicLong();
    var answered = new AtomicLong();
    var callNanos = new AtomicLong();
    var failures = new AtomicLong();
    var stop = new java.util.concurrent.atomic.AtomicBoolean();
    List<Thread> loops = new ArrayList<>();
    snapshot(); // phase totals at the start
    Cpu cpu0 = Cpu.now();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      loops.add(
          Thread.ofPlatform()
              .name("claim-loop-" + t)
              .start(
                  () -> {
                    while (!stop.get()) {
                      try {
                        long c0 = System.nanoTime();
                        int n = Cpu.claim(round::claimDue);
                        callNanos.addAndGet(System.nanoTime() - c0);
                        claimed.addAndGet(n);
                        if (n < batch) {
                          sleep(1_000); // the service's tick
                        }
                      } catch (RuntimeException e) {
                        failures.incrementAndGet();
                        System.out.println("  round failed: " + e);
                        sleep(1_000);
                      }
                    }
                  }));
    }
    Thread answers = null;
    if (answer) {
      answers =
          Thread.ofPlatform()
              .name("answers")
              .start(
                  () -> {
                    while (!stop.get()) {
                      int n = answerLeases();
                      answered.addAndGet(n);
                      if (n == 0) {
                        sleep(10);
                      }
                    }
                  });
    }

    System.out.printf(
        "%-8s %-12s %-9s %-9s  thread-seconds in the interval: %-46s %s%n",
        "seconds",
        "claimed",
        "claims/s",
        "answered",
        "reserve claim serialize publish commit",
        "load");
    long lastClaimed = 0;
    long lastCall = 0;
    long lastReport = start;
    while (claimed.get() < due) {
      sleep(200);
      long now = System.nanoTime();
      boolean timeUp = maxSeconds > 0 && now - start >= maxSeconds * 1_000_000_000L;
      if (now - lastReport >= 10_000_000_000L || claimed.get() >= due || timeUp) {
        long c = claimed.get();
        long call = callNanos.get();
        Map<String, Double> d = snapshot();
        double inRound = d.getOrDefault("latency", 0.0);
        double phases =
            d.getOrDefault("claim", 0.0)
                + d.getOrDefault("serialize", 0.0)
                + d.getOrDefault("publish", 0.0);
        System.out.printf(
            "%-8.1f %-12d %-9.0f %-9d  %7.2f %5.2f %9.2f %7.2f %6.2f %s%n",
            (now - start) / 1e9,
            c,
            (c - lastClaimed) / ((now - lastReport) / 1e9),
            answered.get(),
            (call - lastCall) / 1e9 - inRound,
            d.getOrDefault("claim", 0.0),
            d.getOrDefault("serialize", 0.0),
            d.getOrDefault("publish", 0.0),
            inRound - phases,
            ClaimBenchmark.load());
        lastClaimed = c;
        lastCall = call;
        lastReport = now;
      }
      if (timeUp) {
        break;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Cpu cpu = Cpu.now().since(cpu0);
    stop.set(true);
    for (Thread t : loops) {
      t.join();
    }
    if (answers != null) {
      answers.join();
    }
    long c = claimed.get();
    if (c >= due) {
      System.out.printf(
          "drained: %,d claims emitted and acknowledged in %.1f s, %.0f claims/s (%d rounds"
              + " failed), load %s%n",
          c, seconds, c / seconds, failures.get(), ClaimBenchmark.load());
    } else {
      System.out.printf(
          "stopped after %.1f s: %,d of %,d claimed, %.0f claims/s; the rest at that rate: %.0f s"
              + " more (%d rounds failed), load %s%n",
          seconds,
          c,
          due,
          c / seconds,
          (due - c) / (c / seconds),
          failures.get(),
          ClaimBenchmark.load());
    }
    System.out.println(
        cpu.perClaim(claimed.get())
            + (answer ? " (PostgreSQL's includes the simulated answers)" : ""));
    long reclaimed =
        jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE epoch > 1")
            .query(Long.class)
            .single();
    System.out.printf("sources claimed more than once (expired leases): %,d%n", reclaimed);
  }

  /** Answers up to 500 committed leases as a worker and the outcome listener would, at once. */
  private int answerLeases() {
    try {
      return jdbc.sql(
              """
              WITH a AS (
                SELECT id FROM scheduler.sources
                WHERE lease_until IS NOT NULL AND lease_until > now()
                LIMIT 500 FOR UPDATE SKIP LOCKED
              )
              UPDATE scheduler.sources s SET lease_until = NULL, last_status = 'not_modified',
                last_outcome_at = now(), next_due_at = now() + :cadence * interval '1 minute'
              FROM a WHERE s.id = a.id
              """)
          .param("cadence", cadenceMinutes)
          .update();
    } catch (RuntimeException e) {
      System.out.println("  answers failed: " + e);
      return 0;
    }
  }

  private final Map<String, Double> totals = new HashMap<>();

  /** Seconds per claim phase (and in whole rounds, "latency") since the last call. */
  private Map<String, Double> snapshot() {
    Map<String, Double> delta = new HashMap<>();
    for (var timer : meters.find("freshet.scheduler.claim.phase").timers()) {
      put(delta, timer.getId().getTag("phase"), timer.totalTime(TimeUnit.SECONDS));
    }
    var latency = meters.find("freshet.scheduler.claim.latency").timer();
    if (latency != null) {
      put(delta, "latency", latency.totalTime(TimeUnit.SECONDS));
    }
    return delta;
  }

  private void put(Map<String, Double> delta, String key, double total) {
    delta.put(key, total - totals.getOrDefault(key, 0.0));
    totals.put(key, total);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
