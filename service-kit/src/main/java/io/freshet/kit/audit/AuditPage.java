package io.freshet.kit.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * A page of audit records, newest first, as {@code GET /audit} answers.
 *
 * @param nextBefore the {@code before} of the next (older) page; null on the last page
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AuditPage(List<AuditEntry> entries, @JsonProperty("next_before") Long nextBefore) {}
