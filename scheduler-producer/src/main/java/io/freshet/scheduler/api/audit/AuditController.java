package io.freshet.scheduler.api.audit;

import io.freshet.kit.audit.AuditPage;
import io.freshet.kit.audit.AuditQuery;
import io.freshet.kit.security.ApiKeyRules;
import io.freshet.kit.security.KeyPrincipal;
import io.freshet.scheduler.audit.AuditLog;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /audit}: the changes made through the API, newest first, paged by id. An admin key
 * reads every record (or a tenant's, {@code ?tenant_id=}); a tenant's write key its own tenant's
 * only; a read key none (403: the audit log names keys and what they changed).
 */
@RestController
@RequestMapping(path = "/audit", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "audit", description = "Every change made through the API, with the key that made it")
class AuditController {

  private final AuditLog audit;

  AuditController(AuditLog audit) {
    this.audit = audit;
  }

  @Operation(
      summary = "Audit records, newest first",
      description =
          "Each record: id, at, key_id (the key that made the change), tenant_id (null for a"
              + " change made for every tenant), action (source.create, source.update,"
              + " source.delete, source.enable, source.disable, source.fetch_now, import, run,"
              + " tenant.create, tenant.update, tenant.delete, key.create, key.revoke), target_id"
              + " and changes (JSON, secrets shown as ***, credentials only as kept, replaced or"
              + " removed, a key's text never). An admin key reads every tenant's records unless"
              + " tenant_id names one; a write key its own tenant's (another tenant_id is 404); a"
              + " read key none (403). Page with before = the previous page's next_before.")
  @ApiResponse(responseCode = "403", description = "A read key: the audit log needs write or admin")
  @GetMapping
  AuditPage list(
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
    AuditQuery query = AuditQuery.of(caller, tenantId, limit, before);
    return audit.page(query.tenant(), query.before(), query.limit());
  }

  /** {@code GET /audit} needs a write key at least: a read key never sees who changed what. */
  @Configuration(proxyBeanMethods = false)
  static class Rules {
    @Bean
    ApiKeyRules auditNeedsWrite() {
      return rules -> rules.requestMatchers(HttpMethod.GET, "/audit").hasRole("WRITE");
    }
  }
}
