package io.freshet.sink.api;

import io.freshet.kit.audit.AuditEndpoint;
import io.freshet.kit.audit.AuditPage;
import io.freshet.kit.audit.AuditQuery;
import io.freshet.sink.audit.AuditLog;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /audit} ({@link AuditEndpoint}): the changes made through the sink's API (retention
 * marks and releases, cleanups), newest first, paged by id. A read key gets 403 ({@code
 * SinkSecurityRules}).
 */
@RestController
@RequestMapping(path = "/audit", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(
    name = "audit",
    description =
        "Every change made through the API, with the key that made it. Actions: retention.mark,"
            + " retention.release, cleanup (tenant_id and target_id null: it acts for every"
            + " tenant). changes: a mark's or release's reason, ref, content_ids and marked,"
            + " already_marked or released; a cleanup's deleted, batches, activity_deleted,"
            + " exhausted, expired_before and activity_before.")
class AuditController extends AuditEndpoint {

  private final AuditLog audit;

  AuditController(AuditLog audit) {
    this.audit = audit;
  }

  @Override
  protected AuditPage page(AuditQuery query) {
    return audit.page(query.tenant(), query.before(), query.limit());
  }
}
