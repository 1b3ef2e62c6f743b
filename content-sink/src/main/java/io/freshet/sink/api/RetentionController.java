package io.freshet.sink.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.sink.config.SinkProperties;
import io.freshet.sink.retention.CleanupReport;
import io.freshet.sink.retention.ContentCleaner;
import io.freshet.sink.retention.RetentionMarks;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Retention marks and on-demand cleanup. Marks are writes (a write or admin key) and belong to the
 * tenant they were set for: a tenant key marks and releases only its tenant's content (another
 * tenant's id is a 404 like a missing one), an admin key names the tenant ({@code tenant_id}).
 * Cleanup is an operator's action: admin only ({@code SinkSecurityRules}). Every mark, release and
 * cleanup is recorded in the audit log ({@code GET /audit}) in the transaction that makes it.
 */
@RestController
class RetentionController {

  private final RetentionMarks marks;
  private final ContentCleaner cleaner;
  private final SinkProperties.Api settings;

  RetentionController(RetentionMarks marks, ContentCleaner cleaner, SinkProperties props) {
    this.marks = marks;
    this.cleaner = cleaner;
    this.settings = props.api();
  }

  /**
   * A retention request.
   *
   * @param contentIds the versions ({@code platform_content.id})
   * @param reason why they are kept, e.g. {@code deliverable_execution}
   * @param ref what keeps them, e.g. a deliverable version: with the reason it names the mark, and
   *     a release must name it (required on both)
   * @param tenantId the tenant the request acts for: optional for a tenant key (its own; another is
   *     a 404), required for an admin key
   */
  record RetentionRequest(
      @JsonProperty("content_ids") List<Long> contentIds,
      String reason,
      String ref,
      @JsonProperty("tenant_id") String tenantId) {}

  /**
   * @param alreadyMarked ids that already carried this (reason, ref)
   */
  record MarkResponse(int marked, @JsonProperty("already_marked") int alreadyMarked) {}

  record ReleaseResponse(int released) {}

  @Operation(
      summary = "mark_content_retained: keep these versions until released",
      description =
          "All or nothing: an unknown id is a 404 naming it and nothing is marked. Marking twice"
              + " with the same reason and ref is harmless.")
  @PostMapping("/content/retention")
  MarkResponse mark(
      @AuthenticationPrincipal KeyPrincipal caller, @RequestBody RetentionRequest request) {
    validate(request);
    String tenant = caller.requireActingFor(request.tenantId(), "tenant_id");
    var result =
        marks.markContentRetained(
            request.contentIds(), request.reason(), request.ref(), tenant, caller.keyId());
    return new MarkResponse(result.marked(), result.alreadyMarked());
  }

  @Operation(
      summary = "Release the caller's tenant's mark named by reason and ref from these versions",
      description =
          "All or nothing like marking; released versions expire at their expires_at. The ref is"
              + " required: a release names the mark it removes, and never removes another"
              + " tenant's marks or another ref's.")
  @PostMapping("/content/retention/release")
  ReleaseResponse release(
      @AuthenticationPrincipal KeyPrincipal caller, @RequestBody RetentionRequest request) {
    validate(request);
    String tenant = caller.requireActingFor(request.tenantId(), "tenant_id");
    return new ReleaseResponse(
        marks.release(
            request.contentIds(), request.reason(), request.ref(), tenant, caller.keyId()));
  }

  @Operation(
      summary = "Run cleanup now: delete expired, unretained content in bounded batches",
      description =
          "409 when another sink instance is running cleanup at this moment. A run is recorded"
              + " in the audit log (GET /audit) with what it deleted.")
  @PostMapping("/cleanup")
  CleanupReport cleanup(@AuthenticationPrincipal KeyPrincipal caller) {
    CleanupReport report = cleaner.runFor(caller.keyId());
    if (!report.ran()) {
      throw ApiException.conflict("cleanup: another instance is running it; try again later");
    }
    return report;
  }

  private void validate(RetentionRequest request) {
    if (request == null) {
      throw ApiException.badRequest("body: is missing; expected {content_ids, reason, ref}");
    }
    List<Long> ids = request.contentIds();
    if (ids == null || ids.isEmpty()) {
      throw ApiException.badRequest("content_ids: must be a non-empty array of content ids");
    }
    if (ids.size() > settings.maxIdsPerRequest()) {
      throw ApiException.badRequest(
          "content_ids: at most "
              + settings.maxIdsPerRequest()
              + " per request, got "
              + ids.size());
    }
    for (int i = 0; i < ids.size(); i++) {
      if (ids.get(i) == null) {
        throw ApiException.badRequest("content_ids[" + i + "]: must not be null");
      }
    }
    if (request.reason() == null || request.reason().isBlank()) {
      throw ApiException.badRequest("reason: must not be blank");
    }
    if (request.reason().length() > 200) {
      throw ApiException.badRequest("reason: at most 200 characters");
    }
    if (request.ref() == null || request.ref().isBlank()) {
      throw ApiException.badRequest(
          "ref: must not be blank: a mark is named by its reason and ref, and a release removes"
              + " only the mark it names (what keeps the content, e.g. a deliverable version)");
    }
    if (request.ref().length() > 500) {
      throw ApiException.badRequest("ref: at most 500 characters");
    }
    if (request.reason().indexOf('\0') >= 0
        || request.ref().indexOf('\0') >= 0
        || (request.tenantId() != null && request.tenantId().indexOf('\0') >= 0)) {
      throw ApiException.badRequest("reason/ref/tenant_id: must not contain the NUL character");
    }
  }
}
