package io.freshet.scheduler.api.tenants;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.source.TenantRow;
import java.time.Instant;

/**
 * A tenant as the API shows it.
 *
 * @param maxSources the tenant's own source limit; null when the tier's default applies
 * @param sourceCount how many sources the tenant has
 * @param limits what the tenant's tier and settings allow
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record TenantView(
    String id,
    String tier,
    @JsonProperty("max_sources") Integer maxSources,
    @JsonProperty("source_count") long sourceCount,
    Limits limits,
    @JsonProperty("created_at") Instant createdAt) {

  /**
   * The limits in force.
   *
   * @param maxSources how many sources the tenant may have
   * @param minIntervalMinutes the shortest interval between two scheduled fetches of one source
   */
  public record Limits(
      @JsonProperty("max_sources") int maxSources,
      @JsonProperty("min_interval_minutes") long minIntervalMinutes) {}

  static TenantView of(TenantRow row, long sourceCount, TenantLimits limits) {
    return new TenantView(
        row.id(),
        WireNames.of(row.tier()),
        row.maxSources(),
        sourceCount,
        new Limits(limits.limitOf(row), row.tier().minimumInterval().toMinutes()),
        row.createdAt());
  }
}
