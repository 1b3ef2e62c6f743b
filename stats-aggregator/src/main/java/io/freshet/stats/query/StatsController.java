package io.freshet.stats.query;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.kit.web.Problems;
import io.freshet.stats.app.StatsProperties;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /stats/{sourceId}} and {@code GET /stats?ids=a,b}: any instance answers, routing to
 * the instances that own the sources. Errors are the service kit's RFC 9457 problems ({@code
 * application/problem+json} with {@code errors}, one message per problem): 400 for a bad id, 404
 * for a source with no stats, 503 with Retry-After while the owner is unknown (rebalancing,
 * starting).
 *
 * <p>Every query needs a read key and is scoped by it: a tenant key sees only its tenant's sources;
 * another tenant's source is a 404 with the message of a source without stats, and in {@code
 * /stats?ids=} it is listed in {@code unknown}. A key for every tenant sees every source.
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

  record StatsList(List<StatsView> stats, List<String> unknown) {}

  @GetMapping("/stats/{sourceId}")
  StatsView one(
      @AuthenticationPrincipal KeyPrincipal caller,
      @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization,
      @PathVariable String sourceId) {
    requireValid(sourceId, "sourceId");
    List<StatsView> found = service.find(List.of(sourceId), scope(caller), authorization);
    if (found.isEmpty()) {
      throw ApiException.notFound("sourceId: no stats for source '" + sourceId + "'");
    }
    return found.getFirst();
  }

  @GetMapping("/stats")
  StatsList many(
      @AuthenticationPrincipal KeyPrincipal caller,
      @RequestHeader(HttpHeaders.AUTHORIZATION) String authorization,
      @RequestParam(required = false) String ids) {
    List<String> list = parseIds(ids);
    List<StatsView> found = service.find(list, scope(caller), authorization);
    var known = found.stream().map(StatsView::sourceId).toList();
    return new StatsList(found, list.stream().filter(id -> !known.contains(id)).toList());
  }

  /**
   * For the other instances: only what this instance's active tasks hold, never forwarded. Called
   * with the original caller's key, so it answers only what that key may see.
   */
  @GetMapping("/internal/stats")
  List<StatsView> local(
      @AuthenticationPrincipal KeyPrincipal caller, @RequestParam(required = false) String ids) {
    return service.findLocal(parseIds(ids), scope(caller));
  }

  /** The tenant the caller's reads are confined to; null for a key that reads every tenant. */
  private static String scope(KeyPrincipal caller) {
    return caller.allTenants() ? null : caller.tenantId();
  }

  private List<String> parseIds(String ids) {
    if (ids == null || ids.isBlank()) {
      throw ApiException.badRequest("ids: give one or more source ids, comma-separated");
    }
    List<String> list =
        List.copyOf(
            new LinkedHashSet<>(Arrays.stream(ids.split(",", -1)).map(String::trim).toList()));
    if (list.size() > props.maxIdsPerQuery()) {
      throw ApiException.badRequest(
          "ids: at most " + props.maxIdsPerQuery() + " ids per request, got " + list.size());
    }
    list.forEach(id -> requireValid(id, "ids"));
    return list;
  }

  private static void requireValid(String id, String field) {
    if (!ID.matcher(id).matches()) {
      String shown = id.length() > 40 ? id.substring(0, 40) + "…" : id;
      throw ApiException.badRequest(
          field
              + ": '"
              + shown.replaceAll("\\p{Cntrl}", "?")
              + "' is not a source id (1-128 of A-Z a-z 0-9 . _ : -)");
    }
  }

  /** 503 with Retry-After: the owner of a source is unknown for a moment. */
  @ExceptionHandler(StatsQueryService.UnavailableException.class)
  ResponseEntity<ProblemDetail> unavailable(StatsQueryService.UnavailableException e) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, "1")
        .contentType(MediaType.APPLICATION_PROBLEM_JSON)
        .body(Problems.of(HttpStatus.SERVICE_UNAVAILABLE, "stats: " + e.getMessage()));
  }
}
