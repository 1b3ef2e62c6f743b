package io.freshet.sink.retention;

import io.freshet.sink.activity.ActivityLog;
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

/**
 * {@code cleanup_expired_content} (ADR 0008
 * (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md)): deletes content rows whose
 * {@code expires_at} has passed and that carry no retention mark, in batches of {@code
 * freshet.cleanup.batch-size}, each its own short transaction; then activity-log rows older than
 * {@code freshet.cleanup.activity-retention}. One run at a time across every sink instance: a
 * session advisory lock is tried first, and an instance that does not get it skips its run.
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
  private final SinkProperties.Cleanup settings;
  private final Clock clock;
  private final Counter deletedRows;
  private final Counter deletedActivity;

  ContentCleaner(
      JdbcTemplate jdbc,
      TransactionTemplate tx,
      ActivityLog activity,
      SinkProperties props,
      Clock clock,
      MeterRegistry meters) {
    this.jdbc = jdbc;
    this.tx = tx;
    this.activity = activity;
    this.settings = props.cleanup();
    this.clock = clock;
    this.deletedRows = meters.counter("freshet.sink.cleanup.deleted");
    this.deletedActivity = meters.counter("freshet.sink.cleanup.activity.deleted");
  }

  /** Runs cleanup now, unless another instance is running it. */
  public CleanupReport run() {
    CleanupReport report =
        jdbc.execute(
            (ConnectionCallback<CleanupReport>)
                lockConnection -> {
                  if (!tryLock(lockConnection)) {
                    return CleanupReport.skipped();
                  }
                  try {
                    return cleanUp(clock.instant());
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

  private CleanupReport cleanUp(Instant now) {
    long started = System.nanoTime();
    long deleted = 0;
    int batches = 0;
    boolean exhausted = false;
    while (true) {
      if (batches == settings.maxBatches()) {
        exhausted = true;
        break;
      }
      Integer n =
          tx.execute(
              status -> {
                jdbc.queryForObject(
                    "SELECT 1 FROM pg_advisory_xact_lock(?)",
                    Integer.class,
                    ContentLocks.DELETE_VS_MARK);
                return jdbc.update(DELETE_BATCH, Timestamp.from(now), settings.batchSize());
              });
      batches++;
      deleted += n == null ? 0 : n;
      if (n == null || n < settings.batchSize()) {
        break;
      }
    }
    long activityDeleted = 0;
    Instant activityBefore = now.minus(settings.activityRetention());
    for (int i = 0; i < settings.maxBatches(); i++) {
      int n = activity.deleteLoggedBefore(activityBefore, settings.batchSize());
      activityDeleted += n;
      if (n < settings.batchSize()) {
        break;
      }
    }
    return new CleanupReport(
        true,
        deleted,
        batches,
        activityDeleted,
        exhausted,
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
