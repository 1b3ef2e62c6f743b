package io.freshet.worker.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.LoggerFactory;

/** Stdout carries JSON lines only: libraries' warnings go to stderr, nothing below WARN. */
final class QuietLogging {

  private QuietLogging() {}

  static void toStderr() {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return;
    }
    context.reset();
    var encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%level %logger{20} - %msg%n");
    encoder.start();
    var appender = new ConsoleAppender<ch.qos.logback.classic.spi.ILoggingEvent>();
    appender.setContext(context);
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(appender);
  }
}
