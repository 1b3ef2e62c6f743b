package io.freshet.scheduler.claims;

import io.freshet.kit.ops.OutageLog;
import io.freshet.scheduler.config.SchedulerProperties;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Runs claim rounds on {@code claim-threads} background threads: back to back while rounds come
 * back full, one tick apart when the due set is drained; after an error (database or broker down)
 * it waits a tick and tries again, so nothing is lost and nothing stops. Off when {@code
 * freshet.scheduler.claiming-enabled=false}.
 */
@Component
class ClaimLoop implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(ClaimLoop.class);

  private final ClaimRound round;
  private final SchedulerProperties props;
  private final java.util.List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
  private volatile boolean running;
  // Shared by the claim threads: an outage is one line for the instance, not one per thread.
  private final OutageLog outage;
  private final Clock clock;
  private volatile RoundResult lastRound;

  /**
   * How the latest claim round ended.
   *
   * @param at when it ended
   * @param failure its root cause, or null when it worked
   */
  record RoundResult(java.time.Instant at, String failure) {}

  private final MeterRegistry meters;

  ClaimLoop(ClaimRound round, SchedulerProperties props, Clock clock, MeterRegistry meters) {
    this.round = round;
    this.props = props;
    this.clock = clock;
    this.meters = meters;
    this.outage = new OutageLog(log, "claim rounds", clock, Duration.ofMinutes(1));
  }

  @Override
  public void start() {
    if (!props.claimingEnabled()) {
      log.info("claim loop disabled (freshet.scheduler.claiming-enabled=false)");
      return;
    }
    running = true;
    for (int i = 0; i < props.claimThreads(); i++) {
      threads.add(Thread.ofPlatform().name("claim-loop-" + i).daemon().start(this::loop));
    }
  }

  private void loop() {
    while (running) {
      try {
        int n = round.claimDue();
        lastRound = new RoundResult(clock.instant(), null);
        outage.succeeded();
        if (n < props.batchSize()) {
          pause();
        }
      } catch (RuntimeException e) {
        lastRound = new RoundResult(clock.instant(), OutageLog.rootCause(e));
        meters.counter("freshet.scheduler.claim.rounds.failed", "cause", causeName(e)).increment();
        outage.failed(e);
        pause();
      }
    }
  }

  private void pause() {
    try {
      TimeUnit.MILLISECONDS.sleep(props.tick().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      running = false;
    }
  }

  @Override
  public void stop() {
    running = false;
    threads.forEach(Thread::interrupt);
    for (Thread t : threads) {
      try {
        t.join(props.sendTimeout().toMillis() + 5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    threads.clear();
  }

  /** The innermost exception's simple class name: a small, stable set of metric tags. */
  private static String causeName(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName();
  }

  /** The latest round's result; null before the first round or when claiming is disabled. */
  RoundResult lastRound() {
    return lastRound;
  }

  @Override
  public boolean isRunning() {
    return running;
  }
}
