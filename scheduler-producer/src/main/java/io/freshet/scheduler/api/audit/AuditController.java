package io.freshet.scheduler.api.audit;

import io.freshet.kit.audit.AuditEndpoint;
import io.freshet.kit.audit.AuditPage;
import io.freshet.kit.audit.AuditQuery;
import io.freshet.kit.security.ApiKeyRules;
import io.freshet.scheduler.audit.AuditLog;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /audit} ({@link AuditEndpoint}): the changes made through the scheduler's API, newest
 * first, paged by id.
 */
@RestController
@RequestMapping(path = "/audit", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(
    name = "audit",
    description =
        "Every change made through the API, with the key that made it. Actions: source.create,"
            + " source.update, source.delete, source.enable, source.disable, source.fetch_now,"
            + " import, run, tenant.create, tenant.update, tenant.delete, key.create, key.revoke."
            + " changes: the fields changed, secrets shown as ***, credentials only as kept,"
            + " replaced or removed.")
class AuditController extends AuditEndpoint {

  private final AuditLog audit;

  AuditController(AuditLog audit) {
    this.audit = audit;
  }

  @Override
  protected AuditPage page(AuditQuery query) {
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
