package io.freshet.scheduler.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class OutageLogTest {

  private Instant now = Instant.parse("2026-11-22T10:00:00Z");
  private final Clock clock =
      new Clock() {
        @Override
        public ZoneOffset getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now;
        }
      };

  private final OutageLog outage =
      new OutageLog(
          LoggerFactory.getLogger(OutageLogTest.class), "gauges", clock, Duration.ofMinutes(1));

  @Test
  void anOutageIsOneLineAtItsStartARemindEveryMinuteAndOneAtItsEnd() {
    var down = new IllegalStateException("x", new SQLException("Connection refused"));

    assertThat(outage.failed(down)).isTrue();
    int lines = 0;
    for (int s = 15; s < 60; s += 15) {
      now = now.plusSeconds(15);
      lines += outage.failed(down) ? 1 : 0;
    }
    assertThat(lines).as("runs every 15 s within the first minute").isZero();
    now = now.plusSeconds(15);
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
