package io.freshet.worker.budget;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One fetch's budget of CPU time and allocated bytes for its CPU-bound work. Each document of the
 * fetch is parsed through {@link #run} on a {@link ParsePool} thread, where the JVM meters the
 * thread; what every run used is added up. Parsers call {@link #checkpoint()} in their loops (per
 * item, per recurrence), which throws {@link BudgetExceededException} once the budget is spent; a
 * run past the budget without a checkpoint fails when it returns, and one past the wall limit is
 * interrupted and abandoned.
 */
public final class WorkBudget {

  /** Parsing code that may fail with a checked exception of its own. */
  @FunctionalInterface
  public interface Parse<T, E extends Exception> {
    T parse() throws E;
  }

  private static final ThreadLocal<Meter> CURRENT = new ThreadLocal<>();

  private final ExecutorService executor;
  private final BudgetLimits limits;
  private final com.sun.management.ThreadMXBean threads;
  private long cpuNanosUsed;
  private long bytesUsed;

  WorkBudget(
      ExecutorService executor, BudgetLimits limits, com.sun.management.ThreadMXBean threads) {
    this.executor = executor;
    this.limits = limits;
    this.threads = threads;
  }

  /**
   * Runs {@code parse} on a parse thread within what is left of this budget.
   *
   * @throws BudgetExceededException when the budget ran out during the parse
   * @throws E what the parse itself threw
   * @throws InterruptedException when the fetch was interrupted while waiting for the parse
   */
  public <T, E extends Exception> T run(Parse<T, E> parse) throws E, InterruptedException {
    Meter meter = new Meter(threads, limits, cpuNanosUsed, bytesUsed);
    Future<Outcome<T>> future;
    try {
      future = executor.submit(() -> meter.measure(parse));
    } catch (RejectedExecutionException stopped) {
      throw new InterruptedException("the parse pool is shut down");
    }
    Outcome<T> outcome;
    try {
      outcome = future.get(limits.wall().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException slow) {
      future.cancel(true);
      throw new BudgetExceededException(
          "parsing took longer than " + limits.wall().toSeconds() + " s (wall time); abandoned");
    } catch (InterruptedException e) {
      future.cancel(true);
      throw e;
    } catch (CancellationException | ExecutionException e) {
      throw new IllegalStateException("parse task failed outside the parser", e);
    }
    cpuNanosUsed += meter.cpuNanos();
    bytesUsed += meter.allocatedBytes();
    if (outcome.failure() instanceof RuntimeException r) {
      throw r;
    }
    if (outcome.failure() instanceof Error err) {
      throw err;
    }
    if (outcome.failure() != null) {
      @SuppressWarnings("unchecked")
      E checked = (E) outcome.failure();
      throw checked;
    }
    meter.checkTotals(); // a parse without checkpoints that ran past the budget still fails
    return outcome.value();
  }

  /** CPU time the fetch's parses used so far, in milliseconds. */
  public long cpuMillisUsed() {
    return cpuNanosUsed / 1_000_000;
  }

  /** Bytes the fetch's parses allocated so far. */
  public long bytesUsed() {
    return bytesUsed;
  }

  /**
   * Throws {@link BudgetExceededException} when the budget of the fetch whose parse runs on this
   * thread is spent. A no-op outside {@link #run} (unit tests of parsers, code on other threads).
   */
  public static void checkpoint() {
    Meter meter = CURRENT.get();
    if (meter != null) {
      meter.check();
    }
  }

  private record Outcome<T>(T value, Throwable failure) {}

  /** Measures one run on the current (parse) thread against what the fetch has left. */
  private static final class Meter {
    private final com.sun.management.ThreadMXBean threads;
    private final BudgetLimits limits;
    private final long cpuBefore;
    private final long bytesBefore;
    private long cpuStart;
    private long bytesStart;
    private long wallStart;
    private long cpuNanos;
    private long allocatedBytes;
    private int calls;

    Meter(
        com.sun.management.ThreadMXBean threads,
        BudgetLimits limits,
        long cpuBefore,
        long bytesBefore) {
      this.threads = threads;
      this.limits = limits;
      this.cpuBefore = cpuBefore;
      this.bytesBefore = bytesBefore;
    }

    <T, E extends Exception> Outcome<T> measure(Parse<T, E> parse) {
      cpuStart = cpuNow();
      bytesStart = bytesNow();
      wallStart = System.nanoTime();
      CURRENT.set(this);
      try {
        return new Outcome<>(parse.parse(), null);
      } catch (Exception | StackOverflowError e) {
        return new Outcome<>(null, e);
      } catch (OutOfMemoryError e) {
        // Thrown on this thread, most likely by this parse's own allocations: its garbage is
        // gone once it unwinds. Reported as the budget it exceeded rather than taking the
        // worker down (a JVM run with ExitOnOutOfMemoryError exits before this).
        return new Outcome<>(null, new BudgetExceededException("out of memory while parsing"));
      } finally {
        CURRENT.remove();
        update();
      }
    }

    void check() {
      // Thread CPU time is a system call: read it every 64th checkpoint, allocation every time.
      boolean readCpu = (calls++ & 63) == 0;
      if (Thread.currentThread().isInterrupted()) {
        throw new BudgetExceededException("parse interrupted (wall-time limit or shutdown)");
      }
      if (readCpu) {
        update();
      } else {
        long b = bytesNow();
        if (b >= 0) {
          allocatedBytes = b - bytesStart;
        }
      }
      checkTotals();
    }

    /** Compares what was last measured on the parse thread, from any thread. */
    void checkTotals() {
      if (bytesBefore + allocatedBytes > limits.allocatedBytes()) {
        throw new BudgetExceededException(
            "parsing allocated more than "
                + (limits.allocatedBytes() >> 20)
                + " MiB (work budget per fetch)");
      }
      if (cpuBefore + cpuNanos > limits.cpu().toNanos()) {
        throw new BudgetExceededException(
            "parsing used more than "
                + limits.cpu().toMillis()
                + " ms of CPU (work budget per fetch)");
      }
    }

    private void update() {
      long c = cpuNow();
      cpuNanos = c >= 0 && cpuStart >= 0 ? c - cpuStart : System.nanoTime() - wallStart;
      long b = bytesNow();
      if (b >= 0 && bytesStart >= 0) {
        allocatedBytes = b - bytesStart;
      }
    }

    private long cpuNow() {
      return threads == null ? -1 : threads.getCurrentThreadCpuTime();
    }

    private long bytesNow() {
      return threads == null ? -1 : threads.getCurrentThreadAllocatedBytes();
    }

    long cpuNanos() {
      return cpuNanos;
    }

    long allocatedBytes() {
      return allocatedBytes;
    }
  }
}
