package io.freshet.sink.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * One audit record as {@code GET /audit} shows it (the same shape as the scheduler's).
 *
 * @param tenantId null for a cleanup (it acts for every tenant)
 * @param targetId a mark's ref; null for a cleanup
 * @param changes what changed
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AuditEntry(
    long id,
    Instant at,
    @JsonProperty("key_id") String keyId,
    @JsonProperty("tenant_id") String tenantId,
    String action,
    @JsonProperty("target_id") String targetId,
    JsonNode changes) {}
