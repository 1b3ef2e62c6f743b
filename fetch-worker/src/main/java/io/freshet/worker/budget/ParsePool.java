package io.freshet.worker.budget;

import java.lang.management.ManagementFactory;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The platform threads on which every fetch's CPU-bound work runs. Fetches wait for their hosts on
 * virtual threads, which the JVM cannot meter; a parse handed to one of these threads can be
 * measured (CPU time and allocated bytes per thread), stopped at its budget, and it cannot occupy
 * more than these threads, so one hostile document leaves the other fetches' network waits alone.
 */
public final class ParsePool implements AutoCloseable {

  private static final com.sun.management.ThreadMXBean THREADS = threads();

  private final ExecutorService executor;
  private final BudgetLimits limits;

  /**
   * @param threads parse threads (at least 1); the CPU-bound stage of at most this many fetches
   *     runs at once
   */
  public ParsePool(int threads, BudgetLimits limits) {
    if (threads < 1) {
      throw new IllegalArgumentException("parse threads must be >= 1, was " + threads);
    }
    this.limits = limits;
    AtomicInteger n = new AtomicInteger();
    this.executor =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, "freshet-parse-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /** A fresh budget for one fetch, drawing on this pool. */
  public WorkBudget budget() {
    return new WorkBudget(executor, limits, THREADS);
  }

  public BudgetLimits limits() {
    return limits;
  }

  @Override
  public void close() {
    executor.shutdownNow();
  }

  private static com.sun.management.ThreadMXBean threads() {
    if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean bean) {
      try {
        if (bean.isThreadCpuTimeSupported() && !bean.isThreadCpuTimeEnabled()) {
          bean.setThreadCpuTimeEnabled(true);
        }
        if (bean.isThreadAllocatedMemorySupported() && !bean.isThreadAllocatedMemoryEnabled()) {
          bean.setThreadAllocatedMemoryEnabled(true);
        }
      } catch (UnsupportedOperationException | SecurityException ignored) {
        // measured as far as this JVM allows: WorkBudget falls back to wall time
      }
      return bean;
    }
    return null;
  }
}
