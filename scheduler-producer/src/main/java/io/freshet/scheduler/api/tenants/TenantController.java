package io.freshet.scheduler.api.tenants;

import io.freshet.cadence.source.Tier;
import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.keys.KeyRepository;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.audit.AuditAction;
import io.freshet.scheduler.audit.AuditChanges;
import io.freshet.scheduler.audit.AuditLog;
import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.scheduler.source.TenantRow;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Tenants: their tier and source limit; list, create, read, change and delete. Creating, changing
 * and deleting need an admin key ({@code KeysConfig}); a tenant key reads its own tenant only (the
 * list holds it alone, another tenant is 404 as if it did not exist). Every change is audited.
 */
@RestController
@RequestMapping(path = "/tenants", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "tenants", description = "Tenants, their tier and their source limit")
class TenantController {

  private final TenantRepository tenants;
  private final SourceRepository sources;
  private final TenantLimits limits;
  private final RequestBinder binder;
  private final Clock clock;
  private final TransactionTemplate tx;
  private final KeyRepository keys;
  private final AuditLog audit;

  TenantController(
      TenantRepository tenants,
      SourceRepository sources,
      TenantLimits limits,
      RequestBinder binder,
      Clock clock,
      TransactionTemplate tx,
      KeyRepository keys,
      AuditLog audit) {
    this.audit = audit;
    this.tenants = tenants;
    this.sources = sources;
    this.limits = limits;
    this.binder = binder;
    this.clock = clock;
    this.tx = tx;
    this.keys = keys;
  }

  @Operation(
      summary =
          "Every tenant, by id, with its source count and limits; for a tenant key its own only")
  @GetMapping
  TenantList list(@Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller) {
    return new TenantList(
        tenants.listWithSourceCounts(caller.actingFor(null)).stream()
            .map(c -> TenantView.of(c.tenant(), c.sourceCount(), limits))
            .toList());
  }

  @Operation(summary = "Create a tenant; Location names it")
  @ApiResponse(responseCode = "409", description = "A tenant with this id exists already")
  @ResponseStatus(HttpStatus.CREATED) // as the ResponseEntity says: for the OpenAPI document
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<TenantView> create(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @RequestBody TenantRequest body,
      UriComponentsBuilder uri) {
    binder.check(body, TenantRequest.Create.class);
    tx.executeWithoutResult(
        status -> {
          if (!tenants.insert(body.id(), tier(body), body.maxSources(), clock.instant())) {
            throw ApiException.conflict("tenant '" + body.id() + "' already exists");
          }
          audit.record(
              caller, body.id(), AuditAction.TENANT_CREATE, body.id(), state(body.tier(), body));
        });
    return ResponseEntity.created(uri.path("/tenants/{id}").build(body.id())).body(view(body.id()));
  }

  @Operation(summary = "A tenant with its source count and limits")
  @GetMapping("/{id}")
  TenantView get(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable String id) {
    if (!caller.sees(id)) {
      throw notFound(id); // another tenant's: as if it did not exist
    }
    return view(id);
  }

  @Operation(summary = "Change a tenant's tier and source limit")
  @PutMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
  TenantView update(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable String id,
      @RequestBody TenantRequest body) {
    List<String> errors = new ArrayList<>(binder.problems(body));
    if (body.id() != null && !body.id().equals(id)) {
      errors.add("id: cannot be changed; must be '" + id + "' or left out");
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    tx.executeWithoutResult(
        status -> {
          TenantRow before = tenants.lockForDelete(id).orElseThrow(() -> notFound(id));
          if (!tenants.update(id, tier(body), body.maxSources())) {
            throw notFound(id);
          }
          audit.record(
              caller,
              id,
              AuditAction.TENANT_UPDATE,
              id,
              AuditChanges.diff(
                  state(WireNames.of(before.tier()), before.maxSources()),
                  state(body.tier(), body)));
        });
    return view(id);
  }

  @Operation(
      summary = "Delete a tenant that has no sources; its API keys are revoked",
      description =
          "Refused with 409 while the tenant has sources: delete them first (nothing is deleted"
              + " in cascade, so a mistyped id cannot wipe a tenant's sources).")
  @ApiResponse(responseCode = "409", description = "The tenant still has sources")
  @DeleteMapping("/{id}")
  @ResponseStatus(HttpStatus.NO_CONTENT)
  void delete(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable String id) {
    tx.executeWithoutResult(
        status -> {
          TenantRow before = tenants.lockForDelete(id).orElseThrow(() -> notFound(id));
          long count = sources.countByTenant(id);
          if (count > 0) {
            throw ApiException.conflict(
                "tenant '"
                    + id
                    + "' has "
                    + count
                    + " sources; delete them first (DELETE /sources/{id}), a tenant is never"
                    + " deleted with its sources");
          }
          tenants.delete(id);
          // its keys stop working everywhere (published by the key publisher's next round)
          int revoked = keys.revokeTenant(id, clock.instant());
          audit.record(
              caller,
              id,
              AuditAction.TENANT_DELETE,
              id,
              AuditChanges.wrap("tenant", state(WireNames.of(before.tier()), before.maxSources()))
                  .put("keys_revoked", revoked));
        });
  }

  private static tools.jackson.databind.node.ObjectNode state(String tier, TenantRequest body) {
    return state(tier, body.maxSources());
  }

  private static tools.jackson.databind.node.ObjectNode state(String tier, Integer maxSources) {
    var o = AuditChanges.of().put("tier", tier);
    return maxSources == null ? o.putNull("max_sources") : o.put("max_sources", maxSources);
  }

  private static Tier tier(TenantRequest body) {
    return WireNames.parse(Tier.class, body.tier()).orElseThrow();
  }

  private TenantView view(String id) {
    TenantRow row = tenants.find(id).orElseThrow(() -> notFound(id));
    return TenantView.of(row, sources.countByTenant(id), limits);
  }

  private static ApiException notFound(String id) {
    return ApiException.notFound("no tenant '" + id + "'");
  }
}
