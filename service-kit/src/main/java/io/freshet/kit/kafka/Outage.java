package io.freshet.kit.kafka;

import io.freshet.kit.ops.OutageLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;

/**
 * A service's outage state: a part its consumers need (broker, database, registry) is unavailable.
 * The first failure logs one line ({@link OutageLog}) and makes readiness refuse traffic; the
 * retries that follow log a reminder every 15 minutes at most; the first success after it logs how
 * long it lasted and makes readiness accept traffic again. So an hour-long database outage is two
 * log lines, not thousands of stack traces.
 *
 * <p>An outage also ends when no failure has been reported for {@code quietPeriod} (twice the
 * longest retry interval): some retry paths of spring-kafka succeed without a success callback. A
 * daemon thread looks every half {@code quietPeriod} while an outage lasts, so readiness comes back
 * even when no record arrives after it.
 */
public class Outage {

  private static final Logger log = LoggerFactory.getLogger(Outage.class);

  private static final java.util.concurrent.ScheduledExecutorService WATCHER =
      java.util.concurrent.Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("outage-watch").daemon().unstarted(r));

  private final ApplicationEventPublisher events;
  private final Clock clock;
  private final Duration quietPeriod;
  private final OutageLog lines;
  private volatile Instant since;
  private Instant lastFailure;
  private java.util.concurrent.ScheduledFuture<?> watch;
  private long failures;

  public Outage(ApplicationEventPublisher events, Clock clock, Duration quietPeriod) {
    this.events = events;
    this.clock = clock;
    this.quietPeriod = quietPeriod;
    this.lines = new OutageLog(log, "kafka listeners", clock, Duration.ofMinutes(15));
  }

  /** A consumer failed on an outage ({@link Failures#isOutage}) and will retry. */
  public void failed(Throwable failure) {
    boolean started;
    synchronized (this) {
      endIfQuiet();
      started = since == null;
      Instant now = clock.instant();
      if (started) {
        since = now;
        failures = 0;
      }
      lastFailure = now;
      failures++;
    }
    lines.failed(failure); // the first line, then a reminder every 15 minutes
    if (started) {
      long every = Math.max(1, quietPeriod.toMillis() / 2);
      synchronized (this) {
        watch =
            WATCHER.scheduleWithFixedDelay(
                this::active, every, every, java.util.concurrent.TimeUnit.MILLISECONDS);
      }
      AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC);
    }
  }

  /** A consumer processed records: an outage, if any, is over. */
  public void succeeded() {
    if (since != null) { // a volatile read: the common path takes no lock
      end("records processed again");
    }
  }

  /** Whether an outage is going on. */
  public synchronized boolean active() {
    endIfQuiet();
    return since != null;
  }

  private void endIfQuiet() {
    if (since != null && lastFailure.plus(quietPeriod).isBefore(clock.instant())) {
      end("no failure for " + quietPeriod.toSeconds() + " s");
    }
  }

  private void end(String how) {
    long count;
    synchronized (this) {
      if (since == null) {
        return;
      }
      count = failures;
      since = null;
      if (watch != null) {
        watch.cancel(false);
        watch = null;
      }
    }
    lines.succeeded();
    log.info("{} failed attempts, ended by {}", count, how);
    AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
  }
}
