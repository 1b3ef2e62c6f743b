package io.freshet.scheduler.api.keys;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import java.time.Instant;

/**
 * A key to create.
 *
 * @param tenantId the tenant a read or write key acts for; left out for an admin key
 * @param role {@code read}, {@code write} or {@code admin}
 * @param expiresAt when the key stops working; left out: never
 */
@Schema(name = "KeyRequest", description = "A key to create: its tenant, role and expiry")
public record KeyRequest(
    @Schema(example = "acme") @JsonProperty("tenant_id") String tenantId,
    @Schema(
            example = "read",
            allowableValues = {"read", "write", "admin"})
        String role,
    @JsonProperty("expires_at") Instant expiresAt) {}
