package io.freshet.scheduler.api.tenants;

import io.freshet.cadence.source.Tier;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.keys.KeyRepository;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.scheduler.source.TenantRow;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
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

/** Tenants: their tier and source limit; list, create, read, change and delete. */
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

  TenantController(
      TenantRepository tenants,
      SourceRepository sources,
      TenantLimits limits,
      RequestBinder binder,
      Clock clock,
      TransactionTemplate tx,
      KeyRepository keys) {
    this.tenants = tenants;
    this.sources = sources;
    this.limits = limits;
    this.binder = binder;
    this.clock = clock;
    this.tx = tx;
    this.keys = keys;
  }

  @Operation(summary = "Every tenant, by id, with its source count and limits")
  @GetMapping
  TenantList list() {
    return new TenantList(
        tenants.listWithSourceCounts().stream()
            .map(c -> TenantView.of(c.tenant(), c.sourceCount(), limits))
            .toList());
  }

  @Operation(summary = "Create a tenant; Location names it")
  @ApiResponse(responseCode = "409", description = "A tenant with this id exists already")
  @ResponseStatus(HttpStatus.CREATED) // as the ResponseEntity says: for the OpenAPI document
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<TenantView> create(@RequestBody TenantRequest body, UriComponentsBuilder uri) {
    binder.check(body, TenantRequest.Create.class);
    if (!tenants.insert(body.id(), tier(body), body.maxSources(), clock.instant())) {
      throw ApiException.conflict("tenant '" + body.id() + "' already exists");
    }
    return ResponseEntity.created(uri.path("/tenants/{id}").build(body.id())).body(view(body.id()));
  }

  @Operation(summary = "A tenant with its source count and limits")
  @GetMapping("/{id}")
  TenantView get(@PathVariable String id) {
    return view(id);
  }

  @Operation(summary = "Change a tenant's tier and source limit")
  @PutMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
  TenantView update(@PathVariable String id, @RequestBody TenantRequest body) {
    List<String> errors = new ArrayList<>(binder.problems(body));
    if (body.id() != null && !body.id().equals(id)) {
      errors.add("id: cannot be changed; must be '" + id + "' or left out");
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    if (!tenants.update(id, tier(body), body.maxSources())) {
      throw notFound(id);
    }
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
  void delete(@PathVariable String id) {
    tx.executeWithoutResult(
        status -> {
          tenants.lockForDelete(id).orElseThrow(() -> notFound(id));
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
          keys.revokeTenant(id, clock.instant());
        });
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
