package io.freshet.scheduler.runs;

import io.freshet.scheduler.runs.BatchRunService.RunSummary;
import io.freshet.scheduler.source.TenantRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.annotation.JsonNaming;

/**
 * {@code POST /runs {"window_end": "2026-11-22T12:00:00Z", "tenant_id": "acme"}}: one batch run at
 * {@code window_end} (ADR 0009), for users who run the pipeline on their own schedule.
 */
@RestController
class RunController {

  /** How far ahead of the clock a window may end (clock skew between caller and service). */
  static final Duration MAX_AHEAD = Duration.ofMinutes(5);

  /** The fields a run request may carry; anything else is refused rather than ignored. */
  static final Set<String> FIELDS = Set.of("window_end", "tenant_id");

  private final BatchRunService runs;
  private final TenantRepository tenants;
  private final Clock clock;

  RunController(BatchRunService runs, TenantRepository tenants, Clock clock) {
    this.runs = runs;
    this.tenants = tenants;
    this.clock = clock;
  }

  /** The request body. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  record RunRequest(String windowEnd, String tenantId) {}

  @PostMapping("/runs")
  ResponseEntity<RunSummary> run(
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content =
                  @io.swagger.v3.oas.annotations.media.Content(
                      schema =
                          @io.swagger.v3.oas.annotations.media.Schema(
                              implementation = RunRequest.class)))
          @RequestBody
          Map<String, Object> body) {
    // A misspelt field (say "tenantId") must not silently widen a run to every tenant.
    List<String> unknown =
        body.keySet().stream().filter(k -> !FIELDS.contains(k)).sorted().toList();
    if (!unknown.isEmpty()) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST,
          "unknown field(s) "
              + String.join(", ", unknown)
              + ": a run takes only window_end and tenant_id");
    }
    for (String field : FIELDS) {
      if (body.get(field) != null && !(body.get(field) instanceof String)) {
        throw new ResponseStatusException(HttpStatus.BAD_REQUEST, field + ": must be a string");
      }
    }
    RunRequest request =
        new RunRequest((String) body.get("window_end"), (String) body.get("tenant_id"));
    if (request == null || request.windowEnd() == null || request.windowEnd().isBlank()) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST,
          "window_end: required, an ISO-8601 instant such as 2026-11-22T12:00:00Z");
    }
    Instant windowEnd;
    try {
      windowEnd = Instant.parse(request.windowEnd());
    } catch (DateTimeParseException e) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST,
          "window_end: '"
              + request.windowEnd()
              + "' is not an ISO-8601 instant such as 2026-11-22T12:00:00Z");
    }
    if (windowEnd.isAfter(clock.instant().plus(MAX_AHEAD))) {
      throw new ResponseStatusException(
          HttpStatus.BAD_REQUEST,
          "window_end: must not be more than " + MAX_AHEAD.toMinutes() + " minutes in the future");
    }
    String tenant =
        request.tenantId() == null || request.tenantId().isBlank() ? null : request.tenantId();
    if (tenant != null && tenants.find(tenant).isEmpty()) {
      throw new ResponseStatusException(
          HttpStatus.NOT_FOUND, "tenant_id: no tenant '" + tenant + "'");
    }
    return ResponseEntity.ok(runs.run(windowEnd, tenant));
  }
}
