package io.freshet.scheduler.api.tenants;

import io.freshet.cadence.source.Tier;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.support.ApiProperties;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.scheduler.source.TenantRow;
import org.springframework.stereotype.Component;

/**
 * A tenant's source limit — its own {@code max_sources}, else its tier's default — and the one
 * check that a creation or an import stays within it. Call both inside the transaction that
 * inserts: {@link #lock} holds the tenant's row so that concurrent requests check one after the
 * other.
 */
@Component
public class TenantLimits {

  private final TenantRepository tenants;
  private final SourceRepository sources;
  private final ApiProperties props;

  TenantLimits(TenantRepository tenants, SourceRepository sources, ApiProperties props) {
    this.tenants = tenants;
    this.sources = sources;
    this.props = props;
  }

  /** The source limit in force for {@code tenant}. */
  public int limitOf(TenantRow tenant) {
    return tenant.maxSources() != null ? tenant.maxSources() : props.maxSources().of(tenant.tier());
  }

  /**
   * Locks the tenant's row until the transaction ends.
   *
   * @throws ApiException 400 when there is no such tenant
   */
  public TenantRow lock(String tenantId) {
    return tenants
        .lock(tenantId)
        .orElseThrow(
            () ->
                ApiException.badRequest(
                    "tenant_id: no tenant '" + tenantId + "'; create it first with POST /tenants"));
  }

  /**
   * @throws ApiException 409 when {@code adding} more sources would take the tenant past its limit
   */
  public void checkRoom(TenantRow tenant, int adding) {
    long count = sources.countByTenant(tenant.id());
    int limit = limitOf(tenant);
    if (count + adding > limit) {
      Tier tier = tenant.tier();
      throw ApiException.conflict(
          "tenant '"
              + tenant.id()
              + "' has "
              + count
              + " sources and its limit is "
              + limit
              + " (tier "
              + WireNames.of(tier)
              + "): this request would add "
              + adding
              + ", so nothing was created; delete sources, or raise the tier or max_sources with"
              + " PUT /tenants/"
              + tenant.id());
    }
  }
}
