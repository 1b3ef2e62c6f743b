package io.freshet.kit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Status;

/**
 * A frozen dependency (a broker stopped with SIGSTOP answers nothing, it does not refuse) must turn
 * readiness DOWN, and a health request must never wait for it.
 */
class ProbeTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T12:00:00Z"));

  @Test
  void aCheckThatNeverAnswersIsDownAfterItsTimeoutAndIsNotStartedAgainWhileHung() throws Exception {
    var frozen = new CountDownLatch(1);
    var starts = new java.util.concurrent.atomic.AtomicInteger();
    var probe =
        new Probe(
            "broker",
            () -> {
              starts.incrementAndGet();
              frozen.await();
              return null;
            },
            clock,
            Duration.ofSeconds(2),
            Duration.ofMillis(100));
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      probe.run(executor);
      assertThat(probe.health().getStatus()).isEqualTo(Status.DOWN);
      assertThat(probe.health().getDetails().get("failure").toString())
          .isEqualTo("broker did not answer within 100 ms");

      probe.run(executor);
      assertThat(starts).as("a hung check is not piled up").hasValue(1);
      assertThat(probe.health().getDetails().get("failure").toString())
          .contains("has not answered yet");
      frozen.countDown();
    }
  }

  @Test
  void aFailedCheckIsDownWithItsCauseAndAWorkingOneUpUntilItsResultGrowsStale() {
    var down = new java.util.concurrent.atomic.AtomicBoolean(true);
    var probe =
        new Probe(
            "database",
            () -> {
              if (down.get()) {
                throw new java.sql.SQLException("Connection refused");
              }
              return 1;
            },
            clock,
            Duration.ofSeconds(2),
            Duration.ofSeconds(1));
    try (var executor = Executors.newVirtualThreadPerTaskExecutor()) {
      assertThat(probe.health().getStatus()).as("before any check").isEqualTo(Status.DOWN);
      probe.run(executor);
      assertThat(probe.health().getStatus()).isEqualTo(Status.DOWN);
      assertThat(probe.health().getDetails().get("failure").toString())
          .contains("Connection refused");

      down.set(false);
      probe.run(executor);
      assertThat(probe.health().getStatus()).isEqualTo(Status.UP);

      clock.advance(Duration.ofSeconds(8)); // 3 intervals + timeout = 7 s without a new result
      assertThat(probe.health().getStatus()).isEqualTo(Status.DOWN);
      assertThat(probe.health().getDetails().get("failure").toString()).contains("no database");
    }
  }
}
