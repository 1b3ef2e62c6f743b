package io.freshet.kit.audit;

import io.freshet.kit.security.KeyPrincipal;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * {@code GET /audit} as every service that keeps an audit log serves it: the changes made through
 * its API, newest first, paged by id. An admin key reads every record (or a tenant's, {@code
 * ?tenant_id=}); a tenant's write key its own tenant's only (another tenant is a 404); a read key
 * none (the service's security rules make that a 403: the audit log names keys and what they
 * changed).
 *
 * <p>A service's controller extends this, maps it
 * ({@code @RestController @RequestMapping("/audit")}), names its actions in its {@code @Tag} and
 * reads its own log in {@link #page}. The parameters and their checks ({@link AuditQuery#of}) are
 * the same everywhere.
 */
public abstract class AuditEndpoint {

  /** The page {@code query} asks for, from this service's audit log. */
  protected abstract AuditPage page(AuditQuery query);

  /** {@code GET /audit}. */
  @Operation(
      summary = "Audit records, newest first",
      description =
          "Each record: id, at, key_id (the key that made the change), tenant_id (null for a"
              + " change made for every tenant), action (this service's actions are listed in"
              + " the tag's description), target_id and changes (JSON; secrets shown as ***, a"
              + " key's text never). An admin key reads every tenant's records unless tenant_id"
              + " names one; a write key its own tenant's (another tenant_id is 404); a read key"
              + " none (403). Page with before = the previous page's next_before.")
  @ApiResponse(responseCode = "403", description = "A read key: the audit log needs write or admin")
  @GetMapping
  public AuditPage list(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @Parameter(description = "Only this tenant's records (an admin key; a tenant key's own)")
          @RequestParam(name = "tenant_id", required = false)
          String tenantId,
      @Parameter(
              description =
                  "Records per page, 1 to "
                      + AuditQuery.MAX_LIMIT
                      + "; "
                      + AuditQuery.DEFAULT_LIMIT)
          @RequestParam(required = false)
          String limit,
      @Parameter(description = "Only records with a smaller id: the previous page's next_before")
          @RequestParam(required = false)
          String before) {
    return page(AuditQuery.of(caller, tenantId, limit, before));
  }
}
