package io.freshet.scheduler.api.sources;

import io.freshet.cadence.source.Category;
import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.support.ApiProperties;
import io.freshet.scheduler.api.support.Json;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.source.Connector;
import io.freshet.scheduler.source.SourceFilter;
import io.freshet.scheduler.source.SourcePage;
import io.freshet.scheduler.source.SourceRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;
import tools.jackson.databind.JsonNode;

/**
 * Sources: create, read, list, edit, enable, disable, delete and fetch now — each for the tenant of
 * the caller's key: a tenant key sees only its tenant's sources (another's is 404, as if missing),
 * an admin key every tenant's, and names the tenant it creates a source for.
 */
@RestController
@RequestMapping(path = "/sources", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "sources", description = "The sources the scheduler fetches")
class SourceController {

  private final SourceCommands commands;
  private final SourceRepository sources;
  private final ApiProperties props;
  private final Json json;

  SourceController(
      SourceCommands commands, SourceRepository sources, ApiProperties props, Json json) {
    this.commands = commands;
    this.sources = sources;
    this.props = props;
    this.json = json;
  }

  @Operation(summary = "Create a source; it is due at once; Location names it")
  @ApiResponse(responseCode = "409", description = "The tenant has reached its source limit")
  @ResponseStatus(HttpStatus.CREATED) // as the ResponseEntity says: for the OpenAPI document
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<SourceView> create(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @RequestBody SourceRequest body,
      UriComponentsBuilder uri) {
    SourceView view = commands.create(caller, body);
    return ResponseEntity.created(uri.path("/sources/{id}").build(view.id())).body(view);
  }

  @Operation(summary = "A source with its schedule and stats; credentials are never shown")
  @GetMapping("/{id}")
  SourceView get(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable UUID id) {
    return commands.view(caller, id);
  }

  @Operation(summary = "Sources, oldest first, filtered and paged")
  @GetMapping
  SourceList list(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @RequestParam(name = "tenant_id", required = false) String tenantId,
      @RequestParam(required = false) String enabled,
      @RequestParam(required = false) String connector,
      @RequestParam(required = false) String category,
      @RequestParam(name = "q", required = false) String text,
      @RequestParam(required = false) String page,
      @RequestParam(required = false) String size) {
    List<String> errors = new ArrayList<>();
    Boolean enabledFilter = null;
    if (enabled != null) {
      if (enabled.equals("true") || enabled.equals("false")) {
        enabledFilter = Boolean.valueOf(enabled);
      } else {
        errors.add("enabled: must be true or false");
      }
    }
    Connector connectorFilter = enumFilter("connector", connector, Connector.class, errors);
    Category categoryFilter = enumFilter("category", category, Category.class, errors);
    int pageNumber = number("page", page, 0, 0, Integer.MAX_VALUE, errors);
    int pageSize = number("size", size, 50, 1, props.maxPageSize(), errors);
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    String textFilter = text == null || text.isBlank() ? null : text.strip();
    // in SQL: a tenant key's list holds its tenant's sources only, an admin's every tenant's
    // unless tenant_id names one
    var filter =
        new SourceFilter(
            caller.actingFor(tenantId).orElse(null),
            enabledFilter,
            connectorFilter,
            categoryFilter == null ? null : WireNames.of(categoryFilter),
            textFilter);
    SourcePage result = sources.list(filter, pageNumber, pageSize);
    return new SourceList(
        result.rows().stream().map(row -> SourceView.of(row, json)).toList(),
        pageNumber,
        pageSize,
        result.total());
  }

  @Operation(
      summary =
          "Update the fields the body names; every field it does not name keeps its stored value"
              + " (credentials too; \"credentials\": null removes them)",
      description =
          "What GET returned may be sent back whole: its read-only fields (id, has_credentials,"
              + " cursor, schedule, stats, server, created_at, updated_at) are ignored, and ***"
              + " where GET masked a secret keeps the stored secret while the url stays on the"
              + " same server (scheme, host, port).")
  @PutMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
  SourceView update(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable UUID id,
      @io.swagger.v3.oas.annotations.parameters.RequestBody(
              content = @Content(schema = @Schema(implementation = SourceRequest.class)))
          @RequestBody
          JsonNode body) {
    // merge semantics need to know which fields the body names: bound as a tree, laid over the
    // stored source and then bound to SourceRequest like a creation
    return commands.update(caller, id, body);
  }

  @Operation(summary = "Enable a source and recompute its due time")
  @PostMapping("/{id}/enable")
  SourceView enable(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable UUID id) {
    return commands.setEnabled(caller, id, true);
  }

  @Operation(summary = "Disable a source: it is no longer claimed")
  @PostMapping("/{id}/disable")
  SourceView disable(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable UUID id) {
    return commands.setEnabled(caller, id, false);
  }

  @Operation(summary = "Delete a source")
  @DeleteMapping("/{id}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void delete(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable UUID id) {
    commands.delete(caller, id);
  }

  @Operation(
      summary = "Fetch a source now, bypassing its cadence",
      description =
          "Sets manual_requested and, unless a fetch is in flight, makes the source due now. With"
              + " a fetch in flight the request is kept and the source is due again when that"
              + " fetch completes.")
  @ApiResponse(responseCode = "409", description = "The source is disabled")
  @PostMapping("/{id}/fetch")
  @ResponseStatus(HttpStatus.ACCEPTED)
  FetchAccepted fetchNow(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable UUID id) {
    return commands.requestFetch(caller, id);
  }

  private static <E extends Enum<E>> E enumFilter(
      String name, String value, Class<E> type, List<String> errors) {
    if (value == null) {
      return null;
    }
    E parsed = WireNames.parse(type, value).orElse(null);
    if (parsed == null) {
      errors.add(name + ": allowed values: " + WireNames.allowed(type));
    }
    return parsed;
  }

  private static int number(
      String name, String value, int fallback, int min, int max, List<String> errors) {
    if (value == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(value.strip());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    errors.add(name + ": must be a whole number between " + min + " and " + max);
    return fallback;
  }
}
