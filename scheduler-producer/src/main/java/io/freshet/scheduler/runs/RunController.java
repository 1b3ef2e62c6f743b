package io.freshet.scheduler.runs;

import io.freshet.scheduler.runs.BatchRunService.RunSummary;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
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

  private final BatchRunService runs;
  private final Clock clock;

  RunController(BatchRunService runs, Clock clock) {
    this.runs = runs;
    this.clock = clock;
  }

  /** The request body. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  record RunRequest(String windowEnd, String tenantId) {}

  @PostMapping("/runs")
  ResponseEntity<RunSummary> run(@RequestBody RunRequest request) {
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
    return ResponseEntity.ok(runs.run(windowEnd, tenant));
  }
}
