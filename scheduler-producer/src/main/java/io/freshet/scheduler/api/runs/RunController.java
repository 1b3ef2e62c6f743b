package io.freshet.scheduler.api.runs;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.audit.AuditAction;
import io.freshet.scheduler.audit.AuditChanges;
import io.freshet.scheduler.audit.AuditLog;
import io.freshet.scheduler.runs.BatchRunService;
import io.freshet.scheduler.runs.BatchRunService.RunSummary;
import io.freshet.scheduler.source.TenantRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Duration;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /runs {"window_end": "2026-11-22T12:00:00Z", "tenant_id": "acme"}}: one batch run at
 * {@code window_end} (ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md)), for users
 * who run the pipeline on their own schedule. A tenant key runs its own tenant's sources (naming
 * another tenant is 404); an admin key every tenant's unless {@code tenant_id} names one. The run
 * is audited once it has claimed what was due (its claims commit in their own transactions, each
 * after its requests were sent, so the record follows them).
 */
@RestController
@Tag(name = "runs", description = "Batch runs on the user's own schedule")
class RunController {

  /** How far ahead of the clock a window may end (clock skew between caller and service). */
  static final Duration MAX_AHEAD = Duration.ofMinutes(5);

  private final BatchRunService runs;
  private final TenantRepository tenants;
  private final RequestBinder binder;
  private final Clock clock;
  private final AuditLog audit;
  private final TransactionTemplate tx;

  RunController(
      BatchRunService runs,
      TenantRepository tenants,
      RequestBinder binder,
      Clock clock,
      AuditLog audit,
      TransactionTemplate tx) {
    this.audit = audit;
    this.tx = tx;
    this.runs = runs;
    this.tenants = tenants;
    this.binder = binder;
    this.clock = clock;
  }

  @Operation(
      summary = "Run the pipeline once at window_end: request every source due then",
      description =
          "A misspelt field (say tenantId) is refused, so that it cannot widen a run to every"
              + " tenant; an unknown tenant_id is 404. A tenant key runs its own tenant (naming"
              + " another is 404); an admin key every tenant unless tenant_id names one.")
  @PostMapping(
      path = "/runs",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  RunSummary run(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @RequestBody RunRequest body) {
    binder.check(body);
    if (body.windowEnd().isAfter(clock.instant().plus(MAX_AHEAD))) {
      throw ApiException.badRequest(
          "window_end: must not be more than " + MAX_AHEAD.toMinutes() + " minutes in the future");
    }
    String tenant = caller.actingFor(body.tenantId()).orElse(null);
    if (tenant != null && tenants.find(tenant).isEmpty()) {
      throw ApiException.notFound("tenant_id: no tenant '" + tenant + "'");
    }
    RunSummary summary = runs.run(body.windowEnd(), tenant);
    tx.executeWithoutResult(
        status ->
            audit.record(
                caller,
                tenant,
                AuditAction.RUN,
                summary.runId(),
                AuditChanges.of()
                    .put("window_end", summary.windowEnd().toString())
                    .put("evaluated", summary.evaluated())
                    .put("due", summary.due())
                    .put("requested", summary.requested())
                    .put("skipped_in_flight", summary.skippedInFlight())));
    return summary;
  }
}
