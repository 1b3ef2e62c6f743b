package io.freshet.scheduler.api.support;

import io.freshet.cadence.source.Tier;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The REST API of sources and tenants ({@code freshet.api.*}; every key can be set from the
 * environment, e.g. {@code FRESHET_API_TOKEN}).
 *
 * @param token deprecated: the single write token of earlier releases, accepted for this release as
 *     a bootstrap admin key ({@code io.freshet.kit.security}); use {@code
 *     freshet.security.admin-key} and keys made with {@code POST /keys}
 * @param readToken deprecated: the single read-only token of earlier releases, accepted for this
 *     release as a bootstrap read key (every tenant); use read keys made with {@code POST /keys}
 * @param maxSources default source limit per tier; a tenant's own {@code max_sources} overrides it
 * @param maxPageSize largest {@code size} of one page of the source list
 * @param maxBodySize largest JSON body of a single-source or tenant request
 * @param maxImportSize largest body of a bulk import
 * @param maxImportLines largest number of sources (NDJSON lines or OPML feed outlines) in one
 *     import
 */
@Validated
@ConfigurationProperties("freshet.api")
public record ApiProperties(
    @DefaultValue("") String token,
    @DefaultValue("") String readToken,
    @Valid @NotNull @DefaultValue TierLimits maxSources,
    @Min(1) @Max(10_000) @DefaultValue("500") int maxPageSize,
    @NotNull @DefaultValue("1MB") DataSize maxBodySize,
    @NotNull @DefaultValue("10MB") DataSize maxImportSize,
    @Min(1) @DefaultValue("50000") int maxImportLines) {

  /**
   * Default source limits per tier ({@code freshet.api.max-sources.free|starter|pro}).
   *
   * @param free limit of the free tier
   * @param starter limit of the starter tier
   * @param pro limit of the pro tier
   */
  public record TierLimits(
      @Min(0) @DefaultValue("50") int free,
      @Min(0) @DefaultValue("500") int starter,
      @Min(0) @DefaultValue("10000") int pro) {

    /** The default limit of {@code tier}. */
    public int of(Tier tier) {
      return switch (tier) {
        case FREE -> free;
        case STARTER -> starter;
        case PRO -> pro;
      };
    }
  }
}
