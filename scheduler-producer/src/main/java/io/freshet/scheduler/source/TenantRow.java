package io.freshet.scheduler.source;

import io.freshet.cadence.source.Tier;
import java.time.Instant;

/**
 * A row of {@code scheduler.tenants}.
 *
 * @param maxSources the tenant's own source limit; null = the tier's default
 */
public record TenantRow(String id, Tier tier, Integer maxSources, Instant createdAt) {}
