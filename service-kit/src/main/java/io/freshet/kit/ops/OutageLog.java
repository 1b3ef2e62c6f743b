package io.freshet.kit.ops;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;

/**
 * How a periodic job reports failures that last (PostgreSQL or the broker down): one line when they
 * start, a reminder at most every {@code remindEvery} while they last, one line when the job works
 * again — never a stack trace per run. Thread-safe.
 */
public final class OutageLog {

  private final Logger log;
  private final String job;
  private final Clock clock;
  private final Duration remindEvery;
  private Instant since;
  private Instant lastLine;

  public OutageLog(Logger log, String job, Clock clock, Duration remindEvery) {
    this.log = log;
    this.job = job;
    this.clock = clock;
    this.remindEvery = remindEvery;
  }

  /** A run failed. Returns whether a line was written. */
  public synchronized boolean failed(Throwable e) {
    Instant now = clock.instant();
    if (since == null) {
      since = now;
      lastLine = now;
      log.warn("{} failing: {}; retrying, quietly, until it works again", job, rootCause(e));
      return true;
    }
    if (!now.isBefore(lastLine.plus(remindEvery))) {
      lastLine = now;
      log.warn(
          "{} still failing after {}s: {}",
          job,
          Duration.between(since, now).toSeconds(),
          rootCause(e));
      return true;
    }
    return false;
  }

  /** A run worked. Returns whether a line was written (the end of an outage). */
  public synchronized boolean succeeded() {
    if (since == null) {
      return false;
    }
    log.info(
        "{} works again after {}s of failures",
        job,
        Duration.between(since, clock.instant()).toSeconds());
    since = null;
    return true;
  }

  /** The innermost cause as {@code Type: message}: what an operator can act on. */
  public static String rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
