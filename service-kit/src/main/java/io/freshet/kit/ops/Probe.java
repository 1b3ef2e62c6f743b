package io.freshet.kit.ops;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * One dependency checked in the background ({@link BackgroundProbes}) and reported from the latest
 * result, so a health request never waits for a dependency that is down or frozen. A check that
 * does not answer within the timeout counts as failed, and so does a result too old to trust.
 */
public final class Probe implements HealthIndicator {

  /**
   * The latest check.
   *
   * @param at when it ended
   * @param failure why it failed, or null when it worked
   */
  record Result(Instant at, String failure) {}

  private final String what;
  private final Callable<?> check;
  private final Clock clock;
  private final Duration timeout;
  private final Duration staleAfter;
  private volatile Result last;
  private Future<?> running;

  public Probe(String what, Callable<?> check, Clock clock, Duration interval, Duration timeout) {
    this.what = what;
    this.check = check;
    this.clock = clock;
    this.timeout = timeout;
    this.staleAfter = interval.multipliedBy(3).plus(timeout);
  }

  /** Runs the check once, at most {@code timeout}; a check still hung from before is not re-run. */
  public void run(ExecutorService executor) {
    if (running != null && !running.isDone()) {
      last = new Result(clock.instant(), what + " check has not answered yet");
      return;
    }
    running = executor.submit(check);
    try {
      running.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      last = new Result(clock.instant(), null);
    } catch (TimeoutException e) {
      last =
          new Result(
              clock.instant(), what + " did not answer within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      last = new Result(clock.instant(), OutageLog.rootCause(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public Health health() {
    Result r = last;
    Instant now = clock.instant();
    if (r == null) {
      return Health.down().withDetail("failure", what + " not checked yet").build();
    }
    if (r.at().plus(staleAfter).isBefore(now)) {
      return Health.down()
          .withDetail("failure", "no " + what + " check result since " + r.at())
          .build();
    }
    if (r.failure() != null) {
      return Health.down()
          .withDetail("checked_at", r.at().toString())
          .withDetail("failure", r.failure())
          .build();
    }
    return Health.up().withDetail("checked_at", r.at().toString()).build();
  }
}
