package io.freshet.sink.retention;

import io.freshet.sink.activity.ActivityLog;
import io.freshet.sink.audit.AuditAction;
import io.freshet.sink.audit.AuditLog;
import io.freshet.sink.config.SinkProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code cleanup_expired_content} (ADR 0008
 * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)): deletes content rows whose
 * {@code expires_at} has passed and that carry no retention mark, in batches of {@code
 * freshet.cleanup.batch-size}, each its own short transaction; then activity-log rows older than
 * {@code freshet.cleanup.activity-retention}. One run at a time across every sink instance: a
 * session advisory lock is tried first, and an instance that does not get it skips its run.
 *
 * <p>A run an API key asked for ({@link #runFor}) is recorded in the audit log: its first
 * transaction writes the record, and every later one brings its counts up to date, so the record
 * always says what has been deleted, even of a run that failed half way. Scheduled runs have no key
 * and are not recorded (logs and metrics).
 */
@Service
public class ContentCleaner {

  private static final Logger log = LoggerFactory.getLogger(ContentCleaner.class);

  // SKIP LOCKED: a row an upsert is touching right now waits for the next batch or run.
  private static final String DELETE_BATCH =
      """
      DELETE FROM platform_content WHERE id IN (
        SELECT c.id FROM platform_content c
         WHERE c.expires_at <= ?
           AND NOT EXISTS (SELECT 1 FROM content_retention r WHERE r.content_id = c.id)
         ORDER BY c.expires_at
         LIMIT ?
         FOR UPDATE SKIP LOCKED)
      """;

  private final JdbcTemplate jdbc;
  private final TransactionTemplate tx;
  private final ActivityLog activity;
  private final AuditLog audit;
  private final SinkProperties.Cleanup settings;
  private final Clock clock;
  private final Counter deletedRows;
  private final Counter deletedActivity;

  ContentCleaner(
      JdbcTemplate jdbc,
      TransactionTemplate tx,
      ActivityLog activity,
      AuditLog audit,
      SinkProperties props,
      Clock clock,
      MeterRegistry meters) {
    this.jdbc = jdbc;
    this.tx = tx;
    this.activity = activity;
    this.audit = audit;
    this.settings = props.cleanup();
    this.clock = clock;
    this.deletedRows = meters.counter("freshet.sink.cleanup.deleted");
    this.deletedActivity = meters.counter("freshet.sink.cleanup.activity.deleted");
  }

  /** Runs cleanup now, unless another instance is running it; not recorded in the audit log. */
  public CleanupReport run() {
    return run(null);
  }

  /**
   * Runs cleanup now for the key {@code keyId}, unless another instance is running it, and records
   * what it deleted in the audit log (a skipped run deleted nothing and is not recorded).
   */
  public CleanupReport runFor(String keyId) {
    if (keyId == null) {
      throw new IllegalArgumentException("a recorded cleanup needs the key that asked for it");
    }
    return run(keyId);
  }

  private CleanupReport run(String keyId) {
    CleanupReport report =
        jdbc.execute(
            (ConnectionCallback<CleanupReport>)
                lockConnection -> {
                  if (!tryLock(lockConnection)) {
                    return CleanupReport.skipped();
                  }
                  try {
                    return cleanUp(clock.instant(), keyId == null ? null : new Trail(keyId));
                  } finally {
                    unlock(lockConnection);
                  }
                });
    if (report.ran()) {
      deletedRows.increment(report.deleted());
      deletedActivity.increment(report.activityDeleted());
      log.info(
          "cleanup deleted {} expired unretained content rows in {} batches and {} activity rows"
              + " in {} ms{}",
          report.deleted(),
          report.batches(),
          report.activityDeleted(),
          report.millis(),
          report.exhausted() ? "; stopped at max-batches, the rest waits for the next run" : "");
    } else {
      log.info("cleanup skipped: another instance holds the cleanup lock");
    }
    return report;
  }

  /**
   * A recorded run's audit record: its key, its cut-offs, what it has deleted so far, and the
   * record's id once its first transaction has written it.
   */
  private final class Trail {
    final String keyId;
    Instant expiredBefore;
    Instant activityBefore;
    long deleted;
    int batches;
    long activityDeleted;
    boolean exhausted;
    Long recordId;

    Trail(String keyId) {
      this.keyId = keyId;
    }

    /** Writes or brings up to date the record: call inside the transaction that did the work. */
    void note() {
      ObjectNode changes = JsonNodeFactory.instance.objectNode();
      changes.put("deleted", deleted);
      changes.put("batches", batches);
      changes.put("activity_deleted", activityDeleted);
      changes.put("exhausted", exhausted);
      changes.put("expired_before", expiredBefore.toString());
      changes.put("activity_before", activityBefore.toString());
      if (recordId == null) {
        recordId = audit.record(keyId, null, AuditAction.CLEANUP, null, changes);
      } else {
        audit.revise(recordId, changes);
      }
    }
  }

  private CleanupReport cleanUp(Instant now, Trail trail) {
    long started = System.nanoTime();
    Instant activityBefore = now.minus(settings.activityRetention());
    // a scheduled run counts here only; a recorded one also in its audit record
    Trail counts = trail == null ? new Trail("unrecorded") : trail;
    counts.expiredBefore = now;
    counts.activityBefore = activityBefore;
    while (true) {
      if (counts.batches == settings.maxBatches()) {
        counts.exhausted = true;
        break;
      }
      Integer n =
          tx.execute(
              status -> {
                jdbc.queryForObject(
                    "SELECT 1 FROM pg_advisory_xact_lock(?)",
                    Integer.class,
                    ContentLocks.DELETE_VS_MARK);
                int batch = jdbc.update(DELETE_BATCH, Timestamp.from(now), settings.batchSize());
                counts.batches++;
                counts.deleted += batch;
                if (trail != null) {
                  trail.note();
                }
                return batch;
              });
      if (n == null || n < settings.batchSize()) {
        break;
      }
    }
    for (int i = 0; i < settings.maxBatches(); i++) {
      Integer n =
          tx.execute(
              status -> {
                int batch = activity.deleteLoggedBefore(activityBefore, settings.batchSize());
                counts.activityDeleted += batch;
                if (trail != null) {
                  trail.note();
                }
                return batch;
              });
      if (n == null || n < settings.batchSize()) {
        break;
      }
    }
    if (trail != null && trail.recordId == null) {
      // max-batches 0: nothing ran, but the run asked for is still recorded
      tx.executeWithoutResult(status -> trail.note());
    }
    return new CleanupReport(
        true,
        counts.deleted,
        counts.batches,
        counts.activityDeleted,
        counts.exhausted,
        (System.nanoTime() - started) / 1_000_000);
  }

  private static boolean tryLock(Connection conn) throws SQLException {
    try (var st = conn.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
      st.setLong(1, ContentLocks.CLEANUP_RUN);
      try (var rs = st.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private static void unlock(Connection conn) throws SQLException {
    try (var st = conn.prepareStatement("SELECT pg_advisory_unlock(?)")) {
      st.setLong(1, ContentLocks.CLEANUP_RUN);
      st.execute();
    }
  }
}
