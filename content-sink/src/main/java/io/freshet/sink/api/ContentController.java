package io.freshet.sink.api;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.schemas.avro.SignalType;
import io.freshet.sink.config.SinkProperties;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.List;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Reads of the content layer: what a subscriber that joins late uses to catch up. The sink keeps no
 * table of sources or tenants: one it has never stored content or activity of is a 404, so a typo
 * is not mistaken for an empty list (a source whose every row was cleaned up is unknown again).
 *
 * <p>Every read is scoped by the caller's key ({@link KeyPrincipal}): a tenant key reads only its
 * tenant's rows, the tenant is part of each query's {@code WHERE}, and another tenant's content,
 * source, activity or tenant is answered exactly as one that does not exist (same 404, same
 * message), so sequential content ids cannot be enumerated across tenants. A key for every tenant
 * (admin, the deprecated read token) reads every tenant.
 */
@RestController
class ContentController {

  private static final List<String> SIGNAL_TYPES =
      Arrays.stream(SignalType.values()).map(Enum::name).toList();

  private final ContentReader reader;
  private final SinkProperties.Api settings;

  ContentController(ContentReader reader, SinkProperties props) {
    this.reader = reader;
    this.settings = props.api();
  }

  @Operation(summary = "One stored item version, with its retention marks")
  @GetMapping("/content/{id}")
  ContentView byId(@AuthenticationPrincipal KeyPrincipal caller, @PathVariable long id) {
    return reader.byId(id, scope(caller)).orElseThrow(() -> unknown(id));
  }

  @Operation(
      summary = "Every stored version of the item the given version belongs to, oldest first")
  @GetMapping("/content/{id}/versions")
  List<ContentView> versions(@AuthenticationPrincipal KeyPrincipal caller, @PathVariable long id) {
    List<ContentView> versions = reader.versionsOf(id, scope(caller));
    if (versions.isEmpty()) {
      throw unknown(id);
    }
    return versions;
  }

  @Operation(summary = "A source's content fetched in [from, to), oldest first, keyset-paged")
  @GetMapping("/sources/{sourceId}/content")
  Page<ContentView> bySource(
      @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable String sourceId,
      @Parameter(description = "ISO-8601 instant, inclusive") @RequestParam(required = false)
          String from,
      @Parameter(description = "ISO-8601 instant, exclusive") @RequestParam(required = false)
          String to,
      @RequestParam(required = false) Integer limit,
      @Parameter(description = "next_cursor of the previous page") @RequestParam(required = false)
          String cursor) {
    String tenant = scope(caller);
    var page =
        reader.bySource(sourceId, tenant, window(from, to), contentCursor(cursor), limit(limit));
    if (page.items().isEmpty() && !reader.knowsSource(sourceId, tenant)) {
      throw unknownSource(sourceId);
    }
    return page;
  }

  @Operation(
      summary = "A tenant's content of one signal type fetched in [from, to), oldest first, paged")
  @GetMapping("/tenants/{tenantId}/content")
  Page<ContentView> byTenantAndSignal(
      @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable String tenantId,
      @Parameter(description = "event, ask, give or informative")
          @RequestParam(name = "signal_type")
          String signalType,
      @RequestParam(required = false) String from,
      @RequestParam(required = false) String to,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) String cursor) {
    if (!caller.sees(tenantId)) {
      throw unknownTenant(tenantId); // another tenant: as if the sink had never heard of it
    }
    if (!SIGNAL_TYPES.contains(signalType)) {
      throw ApiException.badRequest(
          "signal_type: must be one of "
              + String.join(", ", SIGNAL_TYPES)
              + ", got '"
              + signalType
              + "'");
    }
    var page =
        reader.byTenantAndSignal(
            tenantId, signalType, window(from, to), contentCursor(cursor), limit(limit));
    if (page.items().isEmpty() && !reader.knowsTenant(tenantId)) {
      throw unknownTenant(tenantId);
    }
    return page;
  }

  private static ApiException unknownTenant(String tenantId) {
    return ApiException.notFound(
        "tenantId: the sink has stored no content of tenant '" + shown(tenantId) + "'");
  }

  /** The tenant the caller's reads are confined to; null for a key that reads every tenant. */
  private static String scope(KeyPrincipal caller) {
    return caller.allTenants() ? null : caller.tenantId();
  }

  @Operation(summary = "A source's activity log: one row per fetch, newest first, keyset-paged")
  @GetMapping("/sources/{sourceId}/activity")
  Page<ActivityView> activity(
      @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable String sourceId,
      @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) String cursor) {
    String tenant = scope(caller);
    var page = reader.activity(sourceId, tenant, cursor(cursor), limit(limit));
    if (page.items().isEmpty() && !reader.knowsSource(sourceId, tenant)) {
      throw unknownSource(sourceId);
    }
    return page;
  }

  private static ApiException unknownSource(String sourceId) {
    return ApiException.notFound(
        "sourceId: the sink has stored no content or activity of source '" + shown(sourceId) + "'");
  }

  private static String shown(String value) {
    String s = value.length() > 80 ? value.substring(0, 80) + "…" : value;
    return s.replaceAll("\\p{Cntrl}", "?");
  }

  private static ApiException unknown(long id) {
    return ApiException.notFound("id: no content with id " + id);
  }

  private int limit(Integer limit) {
    if (limit == null) {
      return settings.defaultPageSize();
    }
    if (limit < 1 || limit > settings.maxPageSize()) {
      throw ApiException.badRequest(
          "limit: must be between 1 and " + settings.maxPageSize() + ", got " + limit);
    }
    return limit;
  }

  private static PageCursor cursor(String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return null;
    }
    try {
      return PageCursor.decode(cursor);
    } catch (IllegalArgumentException e) {
      throw ApiException.badRequest("cursor: " + e.getMessage());
    }
  }

  /** A cursor of a content list, whose key is a content id. */
  private static PageCursor contentCursor(String cursor) {
    PageCursor c = cursor(cursor);
    if (c != null) {
      try {
        c.id();
      } catch (IllegalArgumentException e) {
        throw ApiException.badRequest("cursor: " + e.getMessage());
      }
    }
    return c;
  }

  private static ContentReader.Window window(String from, String to) {
    Instant f = instant("from", from);
    Instant t = instant("to", to);
    if (f != null && t != null && !f.isBefore(t)) {
      throw ApiException.badRequest("from: must be before to (" + from + " >= " + to + ")");
    }
    return new ContentReader.Window(f, t);
  }

  private static Instant instant(String name, String value) {
    if (value == null || value.isEmpty()) {
      return null;
    }
    Instant t;
    try {
      t = Instant.parse(value);
    } catch (DateTimeParseException e) {
      throw ApiException.badRequest(
          name
              + ": must be an ISO-8601 instant such as 2026-11-01T00:00:00Z, got '"
              + shown(value)
              + "'");
    }
    if (t.isBefore(PageCursor.EARLIEST) || t.isAfter(PageCursor.LATEST)) {
      throw ApiException.badRequest(
          name + ": must be between years 0001 and 9999, got '" + shown(value) + "'");
    }
    return t;
  }
}
