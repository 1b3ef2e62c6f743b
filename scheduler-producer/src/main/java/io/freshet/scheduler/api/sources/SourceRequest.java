package io.freshet.scheduler.api.sources;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.freshet.cadence.source.Category;
import io.freshet.scheduler.api.support.WireName;
import io.freshet.scheduler.api.tenants.TenantRequest;
import io.freshet.scheduler.source.Connector;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The body of a source creation, of an update (the fields it names) and of one import entry.
 *
 * @param tenantId required to create; an update may name it only unchanged
 * @param category drives the adaptive cadence; none by default
 * @param priority claim order among sources due at once, higher first; 0 by default
 * @param enabled true by default
 * @param config the source's settings; {@code config.cadence} is validated by the cadence module
 * @param credentials secrets the fetch-worker needs (API keys, passwords, header values): sealed
 *     before they are stored, never shown; in an update, {@code null} removes them
 */
@NoRedactionMask
@Schema(
    name = "SourceRequest",
    description =
        "A source to create (tenant_id, name, connector and url are required), or the fields of"
            + " one to change (PUT /sources/{id}: the fields it names)")
public record SourceRequest(
    @JsonProperty("tenant_id")
        @Schema(example = "acme")
        @NotNull(
            groups = SourceRequest.Create.class,
            message = "is required; " + TenantRequest.ID_RULE)
        @Pattern(regexp = TenantRequest.ID_PATTERN, message = TenantRequest.ID_RULE)
        String tenantId,
    @Schema(example = "Example blog", maxLength = SourceRequest.MAX_NAME)
        @NotNull(
            groups = SourceRequest.Create.class,
            message = "is required; " + SourceRequest.NAME_RULE)
        @Pattern(regexp = SourceRequest.NAME_PATTERN, message = SourceRequest.NAME_RULE)
        String name,
    @Schema(example = "feed")
        @NotNull(groups = SourceRequest.Create.class, message = "is required")
        @WireName(Connector.class)
        String connector,
    @Schema(
            example = "https://example.org/feed.xml",
            description =
                "An absolute http or https URL. Put secrets in credentials, not in the URL: secret"
                    + "-looking query parameters are shown as ***")
        @NotNull(
            groups = SourceRequest.Create.class,
            message = "is required: an absolute http or https URL")
        @SourceUrl
        String url,
    @Schema(example = "rss") @WireName(Category.class) String category,
    @Min(value = -SourceRequest.MAX_PRIORITY, message = SourceRequest.PRIORITY_RULE)
        @Max(value = SourceRequest.MAX_PRIORITY, message = SourceRequest.PRIORITY_RULE)
        Integer priority,
    Boolean enabled,
    @Schema(
            description =
                "Settings: cadence (see the cadence module), retention_days ≥ 1, connector"
                    + " options. Secret values (under a secret name such as token or X-Api-Key —"
                    + " not sync_token_param, which names a parameter — or shaped like a"
                    + " credential) are shown as ***; sent back as *** in an update they keep the"
                    + " stored value. Put secrets in credentials.",
            example = "{\"cadence\": {\"mode\": \"interval\", \"every_minutes\": 60}}")
        @SourceConfig
        JsonNode config,
    @Schema(
            description =
                "Secrets, sealed with AES-256-GCM before they are stored; never shown. An object"
                    + " with bearer (string: Authorization: Bearer …), headers and/or query"
                    + " (objects of strings), added to every request of the source",
            example = "{\"bearer\": \"...\"}")
        @SourceCredentials
        JsonNode credentials) {

  public static final int MAX_NAME = 200;
  static final int MAX_PRIORITY = 1000;
  // anchored and without inline flags, so that JSON Schema validators read it as Java does
  static final String NAME_PATTERN = "^\\s*\\S([\\s\\S]{0,198}\\S)?\\s*$";
  static final String NAME_RULE = "must be a non-blank string of at most 200 characters";
  static final String PRIORITY_RULE = "must be a whole number between -1000 and 1000";

  /** The checks of a creation (and of an import entry) on top of the default ones. */
  public interface Create {}

  /** The same request for {@code tenant} (an import entry without one takes the import's). */
  public SourceRequest withTenant(String tenant) {
    return new SourceRequest(
        tenant, name, connector, url, category, priority, enabled, config, credentials);
  }
}
