package io.freshet.scheduler.api.runs;

import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.runs.BatchRunService;
import io.freshet.scheduler.runs.BatchRunService.RunSummary;
import io.freshet.scheduler.source.TenantRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Duration;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /runs {"window_end": "2026-11-22T12:00:00Z", "tenant_id": "acme"}}: one batch run at
 * {@code window_end} (ADR 0006 (docs/adr/0006-per-source-cadence-and-the-due-rule.md)), for users
 * who run the pipeline on their own schedule.
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

  RunController(BatchRunService runs, TenantRepository tenants, RequestBinder binder, Clock clock) {
    this.runs = runs;
    this.tenants = tenants;
    this.binder = binder;
    this.clock = clock;
  }

  @Operation(
      summary = "Run the pipeline once at window_end: request every source due then",
      description =
          "A misspelt field (say tenantId) is refused, so that it cannot widen a run to every"
              + " tenant; an unknown tenant_id is 404.")
  @PostMapping(
      path = "/runs",
      consumes = MediaType.APPLICATION_JSON_VALUE,
      produces = MediaType.APPLICATION_JSON_VALUE)
  RunSummary run(@RequestBody RunRequest body) {
    binder.check(body);
    if (body.windowEnd().isAfter(clock.instant().plus(MAX_AHEAD))) {
      throw ApiException.badRequest(
          "window_end: must not be more than " + MAX_AHEAD.toMinutes() + " minutes in the future");
    }
    String tenant = body.tenantId() == null || body.tenantId().isBlank() ? null : body.tenantId();
    if (tenant != null && tenants.find(tenant).isEmpty()) {
      throw ApiException.notFound("tenant_id: no tenant '" + tenant + "'");
    }
    return runs.run(body.windowEnd(), tenant);
  }
}
