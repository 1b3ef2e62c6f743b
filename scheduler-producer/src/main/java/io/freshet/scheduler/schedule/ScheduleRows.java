package io.freshet.scheduler.schedule;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Reads a source's schedule row under a row lock, and stores a new due time. */
@Component
public class ScheduleRows {

  private static final String LOCK =
      "SELECT "
          + ScheduleRow.COLUMNS
          + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
          + " WHERE s.id = :id FOR UPDATE OF s";

  private final JdbcClient jdbc;

  ScheduleRows(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** The row, locked until the surrounding transaction ends; empty if the source is gone. */
  public Optional<ScheduleRow> lock(UUID id) {
    return jdbc.sql(LOCK).param("id", id).query(ScheduleRow::map).optional();
  }

  public void setNextDue(UUID id, Instant nextDueAt, Instant now) {
    jdbc.sql("UPDATE scheduler.sources SET next_due_at = :due, updated_at = :now WHERE id = :id")
        .param("due", Timestamp.from(nextDueAt))
        .param("now", Timestamp.from(now))
        .param("id", id)
        .update();
  }
}
