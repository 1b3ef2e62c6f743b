package io.freshet.scheduler.api;

import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.scheduler.source.TenantRow;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.io.InputStream;
import java.time.Clock;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

/** Tenants: their tier and source limit; list, create, read, change and delete. */
@RestController
@RequestMapping("/tenants")
@Tag(name = "tenants", description = "Tenants, their tier and their source limit")
class TenantController {

  private final TenantRepository tenants;
  private final SourceRepository sources;
  private final ApiProperties props;
  private final Clock clock;
  private final TransactionTemplate tx;

  TenantController(
      TenantRepository tenants,
      SourceRepository sources,
      ApiProperties props,
      Clock clock,
      TransactionTemplate tx) {
    this.tenants = tenants;
    this.sources = sources;
    this.props = props;
    this.clock = clock;
    this.tx = tx;
  }

  @Operation(summary = "Every tenant, by id, with its source count and limits")
  @GetMapping
  TenantList list() {
    return new TenantList(
        tenants.listWithSourceCounts().stream()
            .map(c -> TenantView.of(c.tenant(), c.sourceCount(), props))
            .toList());
  }

  @Operation(
      summary = "Delete a tenant that has no sources",
      description =
          "Refused with 409 while the tenant has sources: delete them first (nothing is deleted"
              + " in cascade, so a mistyped id cannot wipe a tenant's sources).")
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
        });
  }

  @Operation(
      summary = "Create a tenant",
      requestBody =
          @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content =
                  @Content(
                      mediaType = MediaType.APPLICATION_JSON_VALUE,
                      examples =
                          @ExampleObject(
                              "{\"id\": \"acme\", \"tier\": \"starter\", \"max_sources\": null}"))))
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<TenantView> create(InputStream body, UriComponentsBuilder uri) {
    TenantRequest request =
        TenantRequest.parse(
            Json.parse(BodyReader.readUtf8(body, props.maxBodySize()), "body"), null);
    if (!tenants.insert(request.id(), request.tier(), request.maxSources(), clock.instant())) {
      throw ApiException.conflict("tenant '" + request.id() + "' already exists");
    }
    return ResponseEntity.created(uri.path("/tenants/{id}").build(request.id()))
        .body(view(request.id()));
  }

  @Operation(summary = "A tenant with its source count and limits")
  @GetMapping("/{id}")
  TenantView get(@PathVariable String id) {
    return view(id);
  }

  @Operation(
      summary = "Change a tenant's tier and source limit",
      requestBody =
          @io.swagger.v3.oas.annotations.parameters.RequestBody(
              required = true,
              content =
                  @Content(
                      mediaType = MediaType.APPLICATION_JSON_VALUE,
                      examples = @ExampleObject("{\"tier\": \"pro\"}"))))
  @PutMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
  TenantView update(@PathVariable String id, InputStream body) {
    TenantRequest request =
        TenantRequest.parse(Json.parse(BodyReader.readUtf8(body, props.maxBodySize()), "body"), id);
    if (!tenants.update(id, request.tier(), request.maxSources())) {
      throw notFound(id);
    }
    return view(id);
  }

  private TenantView view(String id) {
    TenantRow row = tenants.find(id).orElseThrow(() -> notFound(id));
    return TenantView.of(row, sources.countByTenant(id), props);
  }

  private static ApiException notFound(String id) {
    return ApiException.notFound("no tenant '" + id + "'");
  }
}
