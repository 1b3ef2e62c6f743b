package io.freshet.kit.audit;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import tools.jackson.databind.JsonNode;

/**
 * One audit record as {@code GET /audit} shows it.
 *
 * @param tenantId null for a change an admin made for every tenant
 * @param targetId the source, tenant, key or run changed; null for an import
 * @param changes what changed, secrets redacted
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
