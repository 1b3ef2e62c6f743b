package io.freshet.worker.testing;

import io.freshet.worker.http.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A clock that moves only when someone sleeps on it: {@link #sleeper()} records each pause and
 * advances the clock by it, so tests of retries and politeness run without waiting.
 */
public final class FakeTime extends Clock {

  private Instant now;
  private final List<Duration> sleeps = Collections.synchronizedList(new ArrayList<>());

  public FakeTime(Instant start) {
    this.now = start;
  }

  @Override
  public synchronized Instant instant() {
    return now;
  }

  public synchronized void advance(Duration d) {
    now = now.plus(d);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  /** Pauses taken so far (zero-length ones not recorded). */
  public List<Duration> sleeps() {
    synchronized (sleeps) {
      return List.copyOf(sleeps);
    }
  }

  public Sleeper sleeper() {
    return d -> {
      if (!d.isNegative() && !d.isZero()) {
        sleeps.add(d);
        advance(d);
      }
    };
  }
}
