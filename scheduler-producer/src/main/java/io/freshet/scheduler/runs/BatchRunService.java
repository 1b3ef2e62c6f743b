package io.freshet.scheduler.runs;

import io.freshet.scheduler.claims.ClaimRound;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.NextDue;
import io.freshet.scheduler.schedule.ScheduleRow;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * A pipeline run on the user's own schedule (ADR 0006
 * (docs/adr/0006-per-source-cadence-and-the-due-rule.md)): every enabled source is judged due or
 * not at the run's {@code windowEnd} by its cadence rule — {@code last_fetch_at} missing, or {@code
 * windowEnd - last_fetch_at >= every_minutes} for {@code interval}, always for {@code always} — and
 * the due ones are claimed and requested. Sources skipped for cadence are left exactly as they were
 * (their {@code last_fetch_at} untouched). The whole table is judged, page by page: no LIMIT before
 * the due check (ADR 0007 (docs/adr/0007-due-selection-in-sql-with-skip-locked.md)).
 */
@Service
public class BatchRunService {

  private static final Logger log = LoggerFactory.getLogger(BatchRunService.class);
  private static final int PAGE = 1000;

  private final JdbcClient jdbc;
  private final NextDue nextDue;
  private final ClaimRound claims;
  private final SchedulerProperties props;
  private final Clock clock;

  BatchRunService(
      JdbcClient jdbc, NextDue nextDue, ClaimRound claims, SchedulerProperties props, Clock clock) {
    this.jdbc = jdbc;
    this.nextDue = nextDue;
    this.claims = claims;
    this.props = props;
    this.clock = clock;
  }

  /** What a run did (JSON in snake_case). */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RunSummary(
      String runId,
      Instant windowEnd,
      String tenantId,
      int evaluated,
      int due,
      int requested,
      int skippedInFlight) {}

  /**
   * @param tenantId only this tenant's sources, or null for all
   */
  public RunSummary run(Instant windowEnd, String tenantId) {
    String runId = UUID.randomUUID().toString();
    Instant now = clock.instant();
    int evaluated = 0;
    int inFlight = 0;
    List<UUID> due = new ArrayList<>();
    // PostgreSQL orders uuids by unsigned bytes: the all-zero uuid is the smallest.
    UUID after = new UUID(0, 0);
    while (true) {
      List<ScheduleRow> page =
          jdbc.sql(
                  "SELECT "
                      + ScheduleRow.COLUMNS
                      + " FROM scheduler.sources s JOIN scheduler.tenants t ON t.id = s.tenant_id"
                      + " WHERE s.enabled AND s.id > :after"
                      + " AND (CAST(:tenant AS text) IS NULL OR s.tenant_id = :tenant)"
                      + " ORDER BY s.id LIMIT :page")
              .param("after", after)
              .param("tenant", tenantId)
              .param("page", PAGE)
              .query(ScheduleRow::map)
              .list();
      if (page.isEmpty()) {
        break;
      }
      for (ScheduleRow row : page) {
        evaluated++;
        if (row.leaseUntil() != null && row.leaseUntil().isAfter(now)) {
          inFlight++;
        } else if (nextDue.isDueAt(row, windowEnd)) {
          due.add(row.id());
        }
      }
      after = page.getLast().id();
    }
    int requested = 0;
    for (int i = 0; i < due.size(); i += props.batchSize()) {
      requested +=
          claims.claimIds(due.subList(i, Math.min(due.size(), i + props.batchSize())), windowEnd);
    }
    var summary =
        new RunSummary(runId, windowEnd, tenantId, evaluated, due.size(), requested, inFlight);
    log.info("run {}: {}", runId, summary);
    return summary;
  }
}
