package io.freshet.kit.kafka;

import java.sql.SQLException;
import java.util.Set;

/**
 * The one rule every Freshet consumer applies to a failed record: <b>outage or poison?</b>
 *
 * <p>An <b>outage</b> is a part the record needs being unavailable — the broker, the database, the
 * schema registry, the network: the same record will succeed once it is back, so it is retried with
 * a capped backoff, forever, and nothing after it is committed. Everything else is <b>poison</b>: a
 * record that will fail the same way again (undecodable, invalid, or hitting a bug) goes to its
 * consumer group's dead-letter topic at once, so one bad record cannot stop a partition; after a
 * fix it can be re-driven.
 *
 * <p>A failure is an outage when any exception in its cause chain is one of: a socket, timeout or
 * unknown-host failure; a Kafka {@code RetriableException} (timeouts, leader changes, network); a
 * transient, recoverable or connection SQL failure (SQLState class {@code 08} connection, {@code
 * 53} insufficient resources, {@code 57P} operator intervention such as a shutdown, {@code 40001}
 * serialisation and {@code 40P01} deadlock, and any SQL failure without a state: the server states
 * every error it reports, so one without comes from the pool or driver about the connection); or
 * one of Spring's data-access resource or transient failures. Classes are matched by name along
 * their hierarchy, so the rule needs neither JDBC nor Spring's data access on the classpath.
 */
public final class Failures {

  /** What a failure is. */
  public enum Kind {
    /** A part is unavailable: retry the same record until it is back. */
    OUTAGE,
    /** The record fails the same way every time: dead-letter it. */
    POISON
  }

  private static final Set<String> OUTAGE_TYPES =
      Set.of(
          "java.net.SocketException", // ConnectException, connection reset, no route
          "java.net.SocketTimeoutException",
          "java.net.UnknownHostException",
          "java.net.http.HttpTimeoutException",
          "java.nio.channels.ClosedChannelException",
          "java.sql.SQLTransientException",
          "java.sql.SQLRecoverableException",
          "java.sql.SQLNonTransientConnectionException",
          "org.apache.kafka.common.errors.RetriableException",
          "org.springframework.dao.DataAccessResourceFailureException",
          "org.springframework.dao.TransientDataAccessException",
          "org.springframework.dao.RecoverableDataAccessException",
          "org.springframework.transaction.CannotCreateTransactionException",
          "com.zaxxer.hikari.pool.HikariPool$PoolInitializationException");

  /** The longest reason kept: a message can carry a whole document. */
  static final int MAX_REASON = 1_000;

  private Failures() {}

  /** Outage or poison, by the rule above. */
  public static Kind classify(Throwable failure) {
    return isOutage(failure) ? Kind.OUTAGE : Kind.POISON;
  }

  /** Whether any exception in the cause chain means that a part is unavailable. */
  public static boolean isOutage(Throwable failure) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 32; t = t.getCause(), depth++) {
      if (isOutageType(t.getClass()) || isOutageState(t)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isOutageType(Class<?> type) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      if (OUTAGE_TYPES.contains(c.getName())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isOutageState(Throwable t) {
    if (!(t instanceof SQLException sql)) {
      return false;
    }
    String state = sql.getSQLState();
    if (state == null) {
      // The database server states every error it reports; one without a state comes from the
      // pool or the driver about the connection ("Connection is closed" after a lost backend).
      return true;
    }
    return state.startsWith("08")
        || state.startsWith("53")
        || state.startsWith("57P")
        || state.equals("40001")
        || state.equals("40P01");
  }

  /**
   * The root cause's type and message, at most {@value #MAX_REASON} characters: what an operator
   * reads in a dead letter's headers and in the log.
   */
  public static String reason(Throwable failure) {
    Throwable root = rootCause(failure);
    String message = root.getMessage();
    String text = root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    Throwable outer = failure;
    while (outer != root && outer.getClass().getName().startsWith("org.springframework.kafka.")) {
      outer = outer.getCause(); // the container's wrappers say nothing about the record
    }
    if (outer != root && outer.getMessage() != null && !outer.getMessage().equals(message)) {
      // the outermost message of the application usually says where (topic, offset, field)
      text = outer.getMessage() + " (" + text + ")";
    }
    return text.length() <= MAX_REASON ? text : text.substring(0, MAX_REASON - 1) + "…";
  }

  /**
   * Where it failed: the root cause's first stack frame and, when that is library code, the first
   * frame of Freshet's own code that led there.
   */
  public static String firstFrame(Throwable failure) {
    Throwable root = rootCause(failure);
    StackTraceElement[] frames = root.getStackTrace();
    if (frames.length == 0) {
      return "";
    }
    String first = frames[0].toString();
    if (frames[0].getClassName().startsWith("io.freshet.")) {
      return first;
    }
    for (Throwable t = root; t != null; t = t == failure ? null : parentOf(failure, t)) {
      for (StackTraceElement frame : t.getStackTrace()) {
        if (frame.getClassName().startsWith("io.freshet.")) {
          return first + " (from " + frame + ")";
        }
      }
    }
    return first;
  }

  static Throwable rootCause(Throwable failure) {
    Throwable t = failure;
    for (int depth = 0; t.getCause() != null && t.getCause() != t && depth < 32; depth++) {
      t = t.getCause();
    }
    return t;
  }

  /** The exception in {@code failure}'s chain whose cause is {@code child}. */
  private static Throwable parentOf(Throwable failure, Throwable child) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t.getCause() == child) {
        return t;
      }
    }
    return null;
  }
}
