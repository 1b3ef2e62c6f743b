package io.freshet.sink.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.freshet.kit.web.ApiException;
import io.freshet.sink.config.SinkProperties;
import io.freshet.sink.retention.CleanupReport;
import io.freshet.sink.retention.ContentCleaner;
import io.freshet.sink.retention.RetentionMarks;
import io.swagger.v3.oas.annotations.Operation;
import java.util.List;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Retention marks and on-demand cleanup (writes: they need the bearer token). */
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
   * @param ref what keeps them, e.g. a deliverable version; empty when omitted (on release, omitted
   *     means every ref of the reason)
   */
  record RetentionRequest(
      @JsonProperty("content_ids") List<Long> contentIds, String reason, String ref) {}

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
  MarkResponse mark(@RequestBody RetentionRequest request) {
    validate(request);
    var result =
        marks.markContentRetained(
            request.contentIds(), request.reason(), request.ref() == null ? "" : request.ref());
    return new MarkResponse(result.marked(), result.alreadyMarked());
  }

  @Operation(
      summary = "Release retention marks of a reason (and ref) from these versions",
      description = "All or nothing like marking; released versions expire at their expires_at.")
  @PostMapping("/content/retention/release")
  ReleaseResponse release(@RequestBody RetentionRequest request) {
    validate(request);
    return new ReleaseResponse(
        marks.release(request.contentIds(), request.reason(), request.ref()));
  }

  @Operation(
      summary = "Run cleanup now: delete expired, unretained content in bounded batches",
      description = "409 when another sink instance is running cleanup at this moment.")
  @PostMapping("/cleanup")
  CleanupReport cleanup() {
    CleanupReport report = cleaner.run();
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
    if (request.ref() != null && request.ref().length() > 500) {
      throw ApiException.badRequest("ref: at most 500 characters");
    }
    if (request.reason().indexOf('\0') >= 0
        || (request.ref() != null && request.ref().indexOf('\0') >= 0)) {
      throw ApiException.badRequest("reason/ref: must not contain the NUL character");
    }
  }
}
