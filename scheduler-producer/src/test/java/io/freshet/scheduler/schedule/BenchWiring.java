package io.freshet.scheduler.schedule;

import java.time.Clock;
import org.springframework.transaction.support.TransactionTemplate;

/** The schedule package's own beans for benchmark mains that run without Spring. */
public final class BenchWiring {

  private BenchWiring() {}

  /** The service's {@link Rescheduler}. */
  public static Rescheduler rescheduler(
      ScheduleRepository rows, NextDue nextDue, TransactionTemplate tx, Clock clock) {
    return new DefaultRescheduler(rows, nextDue, tx, clock);
  }
}
