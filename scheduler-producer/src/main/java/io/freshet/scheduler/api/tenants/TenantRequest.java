package io.freshet.scheduler.api.tenants;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.freshet.cadence.source.Tier;
import io.freshet.kit.audit.AuditQuery;
import io.freshet.scheduler.api.support.WireName;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;

/**
 * The body of a tenant creation ({@code id} required) or change ({@code id} may be left out, or
 * must be the path's).
 *
 * @param tier sets the minimum interval between fetches and the default source limit
 * @param maxSources the tenant's own source limit; null for the tier's default
 */
@Schema(
    name = "TenantRequest",
    description = "A tenant to create (id and tier required), or its new tier and limit")
public record TenantRequest(
    @Schema(example = "acme")
        @NotNull(
            groups = TenantRequest.Create.class,
            message = "is required; " + TenantRequest.ID_RULE)
        @Pattern(regexp = TenantRequest.ID_PATTERN, message = TenantRequest.ID_RULE)
        String id,
    @Schema(example = "starter") @NotNull(message = "is required") @WireName(Tier.class)
        String tier,
    @JsonProperty("max_sources")
        @PositiveOrZero(message = "must be a whole number ≥ 0, or null for the tier's default")
        Integer maxSources) {

  /** A tenant id: also the partition of its sources' data downstream. */
  public static final String ID_PATTERN = AuditQuery.TENANT_ID_PATTERN;

  public static final String ID_RULE = AuditQuery.TENANT_ID_RULE;

  /** The checks of a creation on top of the default ones. */
  public interface Create {}
}
