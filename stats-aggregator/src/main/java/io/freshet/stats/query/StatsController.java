package io.freshet.stats.query;

import io.freshet.stats.app.StatsProperties;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /stats/{sourceId}} and {@code GET /stats?ids=a,b}: any instance answers, routing to
 * the instances that own the sources. Errors are {@code {"status", "error", "message"}}: 400 for a
 * bad id, 404 for a source with no stats, 503 while the owner is unknown (rebalancing, starting).
 */
@RestController
class StatsController {

  /** Source ids: UUIDs in Freshet, but any token of these characters is accepted. */
  static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private final StatsQueryService service;
  private final StatsProperties props;

  StatsController(StatsQueryService service, StatsProperties props) {
    this.service = service;
    this.props = props;
  }

  record ApiError(int status, String error, String message) {}

  record StatsList(List<StatsView> stats, List<String> unknown) {}

  static final class BadRequest extends RuntimeException {
    BadRequest(String message) {
      super(message);
    }
  }

  static final class NotFound extends RuntimeException {
    NotFound(String message) {
      super(message);
    }
  }

  @GetMapping("/stats/{sourceId}")
  StatsView one(@PathVariable String sourceId) {
    requireValid(sourceId, "sourceId");
    List<StatsView> found = service.find(List.of(sourceId));
    if (found.isEmpty()) {
      throw new NotFound("no stats for source '" + sourceId + "'");
    }
    return found.getFirst();
  }

  @GetMapping("/stats")
  StatsList many(@RequestParam(required = false) String ids) {
    List<String> list = parseIds(ids);
    List<StatsView> found = service.find(list);
    var known = found.stream().map(StatsView::sourceId).toList();
    return new StatsList(found, list.stream().filter(id -> !known.contains(id)).toList());
  }

  /** For the other instances: only what this instance's active tasks hold, never forwarded. */
  @GetMapping("/internal/stats")
  List<StatsView> local(@RequestParam(required = false) String ids) {
    return service.findLocal(parseIds(ids));
  }

  private List<String> parseIds(String ids) {
    if (ids == null || ids.isBlank()) {
      throw new BadRequest("ids: give one or more source ids, comma-separated");
    }
    List<String> list =
        List.copyOf(
            new LinkedHashSet<>(Arrays.stream(ids.split(",", -1)).map(String::trim).toList()));
    if (list.size() > props.maxIdsPerQuery()) {
      throw new BadRequest(
          "ids: at most " + props.maxIdsPerQuery() + " ids per request, got " + list.size());
    }
    list.forEach(id -> requireValid(id, "ids"));
    return list;
  }

  private static void requireValid(String id, String field) {
    if (!ID.matcher(id).matches()) {
      String shown = id.length() > 40 ? id.substring(0, 40) + "…" : id;
      throw new BadRequest(
          field
              + ": '"
              + shown.replaceAll("\\p{Cntrl}", "?")
              + "' is not a source id (1-128 of A-Z a-z 0-9 . _ : -)");
    }
  }

  @ExceptionHandler(BadRequest.class)
  ResponseEntity<ApiError> badRequest(BadRequest e) {
    return error(HttpStatus.BAD_REQUEST, e.getMessage());
  }

  @ExceptionHandler(NotFound.class)
  ResponseEntity<ApiError> notFound(NotFound e) {
    return error(HttpStatus.NOT_FOUND, e.getMessage());
  }

  @ExceptionHandler(StatsQueryService.UnavailableException.class)
  ResponseEntity<ApiError> unavailable(StatsQueryService.UnavailableException e) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header("Retry-After", "1")
        .body(new ApiError(503, "Service Unavailable", e.getMessage()));
  }

  private static ResponseEntity<ApiError> error(HttpStatus status, String message) {
    return ResponseEntity.status(status)
        .body(new ApiError(status.value(), status.getReasonPhrase(), message));
  }
}
