package io.freshet.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.freshet.kit.ops.OutageLog;
import java.sql.SQLTransientConnectionException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The budget planner used to log Spring's stack trace on every run of an outage. */
class BackgroundJobsTest {

  @Test
  void aJobFailingOnEveryRunOfAnOutageWritesOneLineWithoutAStackTraceAndOneWhenItWorksAgain() {
    Logger logger = (Logger) LoggerFactory.getLogger("background-jobs-test");
    var lines = new ListAppender<ILoggingEvent>();
    logger.setLevel(ch.qos.logback.classic.Level.INFO);
    lines.start();
    logger.addAppender(lines);
    var databaseDown = new AtomicBoolean(true);
    Runnable job =
        BackgroundJobs.quietly(
            new OutageLog(logger, "budget planner", Clock.systemUTC(), Duration.ofMinutes(30)),
            () -> {
              if (databaseDown.get()) {
                throw new IllegalStateException(
                    "Failed to obtain JDBC Connection",
                    new SQLTransientConnectionException("Connection is not available"));
              }
            });

    for (int run = 0; run < 40; run++) {
      assertThatCode(job::run).doesNotThrowAnyException();
    }
    databaseDown.set(false);
    job.run();

    assertThat(lines.list).hasSize(2);
    assertThat(lines.list.getFirst().getFormattedMessage())
        .contains("budget planner failing")
        .contains("Connection is not available");
    assertThat(lines.list).allSatisfy(e -> assertThat(e.getThrowableProxy()).isNull());
    assertThat(lines.list.getLast().getFormattedMessage()).contains("works again");
  }
}
