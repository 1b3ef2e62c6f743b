package io.freshet.scheduler.api.runs;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.NotNull;
import java.time.Instant;

/**
 * The body of a batch run.
 *
 * @param windowEnd the run's logical time (ADR 0006
 *     (docs/adr/0006-per-source-cadence-and-the-due-rule.md)): at most a few minutes ahead of the
 *     clock
 * @param tenantId only this tenant's sources; all tenants when left out
 */
@Schema(name = "RunRequest")
public record RunRequest(
    @JsonProperty("window_end")
        @Schema(example = "2026-11-22T12:00:00Z")
        @NotNull(message = "required, an ISO-8601 instant such as 2026-11-22T12:00:00Z")
        Instant windowEnd,
    @JsonProperty("tenant_id") @Schema(example = "acme") String tenantId) {}
