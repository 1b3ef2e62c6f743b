package io.freshet.kit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class OutageLogTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2026-11-22T10:00:00Z"));

  private final OutageLog outage =
      new OutageLog(
          LoggerFactory.getLogger(OutageLogTest.class), "gauges", clock, Duration.ofMinutes(1));

  @Test
  void anOutageIsOneLineAtItsStartARemindEveryMinuteAndOneAtItsEnd() {
    var down = new IllegalStateException("x", new SQLException("Connection refused"));

    assertThat(outage.failed(down)).isTrue();
    int lines = 0;
    for (int s = 15; s < 60; s += 15) {
      clock.advance(Duration.ofSeconds(15));
      lines += outage.failed(down) ? 1 : 0;
    }
    assertThat(lines).as("runs every 15 s within the first minute").isZero();
    clock.advance(Duration.ofSeconds(15));
    assertThat(outage.failed(down)).as("a reminder after a minute").isTrue();
    assertThat(outage.succeeded()).isTrue();
    assertThat(outage.succeeded()).as("nothing to say while all is well").isFalse();
  }

  @Test
  void theRootCauseIsWhatIsReported() {
    var e = new RuntimeException("wrapper", new SQLException("Connection refused"));

    assertThat(OutageLog.rootCause(e)).isEqualTo("SQLException: Connection refused");
  }
}
