package io.freshet.worker.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkBudgetTest {

  private static final long MIB = 1 << 20;

  private final ParsePool pool =
      new ParsePool(2, new BudgetLimits(Duration.ofSeconds(2), 64 * MIB, Duration.ofSeconds(3)));

  @AfterEach
  void close() {
    pool.close();
  }

  @Test
  void aParseWithinTheBudgetReturnsItsValueAndItsUseIsCounted() throws Exception {
    WorkBudget budget = pool.budget();

    assertThat(budget.run(() -> allocate(4 * MIB, false))).isEqualTo(4 * MIB);
    assertThat(budget.bytesUsed()).isBetween(4 * MIB, 16 * MIB);
  }

  @Test
  void aCheckpointPastTheAllocationBudgetEndsTheParse() {
    WorkBudget budget = pool.budget();

    assertThatThrownBy(() -> budget.run(() -> allocate(512 * MIB, true)))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("allocated more than 64 MiB");
    assertThat(budget.bytesUsed()).isLessThan(128 * MIB);
  }

  @Test
  void aParseWithoutCheckpointsThatRanPastTheBudgetFailsWhenItReturns() {
    WorkBudget budget = pool.budget();

    assertThatThrownBy(() -> budget.run(() -> allocate(100 * MIB, false)))
        .isInstanceOf(BudgetExceededException.class);
  }

  @Test
  void theDocumentsOfOneFetchShareItsBudget() throws Exception {
    WorkBudget budget = pool.budget();
    budget.run(() -> allocate(40 * MIB, true));

    assertThatThrownBy(() -> budget.run(() -> allocate(40 * MIB, true)))
        .isInstanceOf(BudgetExceededException.class);
    assertThat(pool.budget().run(() -> allocate(40 * MIB, true))).isEqualTo(40 * MIB);
  }

  @Test
  void whatTheCallingThreadAllocatedIsNotTheParsesWork() throws Exception {
    allocate(256 * MIB, false); // a long-lived caller (the CLI, a test) has allocated a lot

    assertThat(pool.budget().run(() -> allocate(MIB, true))).isEqualTo(MIB);
  }

  @Test
  void aParseThatSpinsPastTheCpuBudgetEndsAtItsNextCheckpoint() {
    assertThatThrownBy(
            () ->
                pool.budget()
                    .run(
                        () -> {
                          long x = 0;
                          while (true) {
                            x += System.nanoTime() % 7;
                            WorkBudget.checkpoint();
                            if (x == Long.MIN_VALUE) {
                              return x;
                            }
                          }
                        }))
        .isInstanceOf(BudgetExceededException.class);
  }

  @Test
  void aParseThatNeverChecksIsAbandonedAtTheWallLimit() {
    assertThatThrownBy(
            () ->
                pool.budget()
                    .run(
                        () -> {
                          // stands for a parser stuck in one call: never released
                          new CountDownLatch(1).await();
                          return 0;
                        }))
        .isInstanceOf(BudgetExceededException.class)
        .hasMessageContaining("wall time");
  }

  @Test
  void theParsesOwnFailureReachesTheCaller() {
    assertThatThrownBy(
            () ->
                pool.budget()
                    .run(
                        () -> {
                          throw new IOException("not a feed");
                        }))
        .isInstanceOf(IOException.class)
        .hasMessage("not a feed");
  }

  @Test
  void checkpointsOutsideAParseDoNothing() {
    WorkBudget.checkpoint();
  }

  /** Allocates about {@code bytes} in 64 KiB arrays, optionally with a checkpoint after each. */
  private static long allocate(long bytes, boolean checkpoints) {
    long done = 0;
    byte[] keep = null;
    while (done < bytes) {
      keep = new byte[64 * 1024];
      done += keep.length;
      if (checkpoints) {
        WorkBudget.checkpoint();
      }
    }
    return keep == null ? 0 : done;
  }
}
