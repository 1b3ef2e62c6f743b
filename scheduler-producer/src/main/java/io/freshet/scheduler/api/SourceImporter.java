package io.freshet.scheduler.api;

import io.freshet.scheduler.source.NewSource;
import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.scheduler.source.TenantRow;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.node.StringNode;

/**
 * Bulk import, all or nothing: every entry is validated before anything is written; then, in one
 * transaction holding each tenant's row lock, sources the tenant already has (same connector and
 * URL) are skipped, the tenant's source limit is checked for the whole batch and the rest is
 * inserted.
 */
@Component
class SourceImporter {

  private final SourceCommands commands;
  private final SourceRepository sources;
  private final TenantRepository tenants;
  private final TransactionTemplate tx;
  private final ApiProperties props;
  private final Clock clock;

  SourceImporter(
      SourceCommands commands,
      SourceRepository sources,
      TenantRepository tenants,
      TransactionTemplate tx,
      ApiProperties props,
      Clock clock) {
    this.commands = commands;
    this.sources = sources;
    this.tenants = tenants;
    this.tx = tx;
    this.props = props;
    this.clock = clock;
  }

  /**
   * @param fallbackTenant the {@code tenant_id} query parameter, used by entries without one; may
   *     be null when every entry names its tenant
   */
  ImportResult run(List<ImportEntry> entries, String fallbackTenant) {
    if (fallbackTenant != null) {
      SourceValidator.checkTenantId("tenant_id", StringNode.valueOf(fallbackTenant))
          .ifPresent(m -> fail(List.of(m + " (query parameter)")));
      if (tenants.find(fallbackTenant).isEmpty()) {
        fail(List.of(SourceCommands.unknownTenant(fallbackTenant)));
      }
    }
    List<String> errors = new ArrayList<>();
    List<Validated> valid = new ArrayList<>();
    Map<String, Boolean> known = new LinkedHashMap<>();
    if (fallbackTenant != null) {
      known.put(fallbackTenant, true);
    }
    for (ImportEntry entry : entries) {
      SourceValidator.Checked checked =
          commands.validator().validate(entry.body(), fallbackTenant, true);
      if (!checked.ok()) {
        checked.errors().forEach(e -> errors.add(entry.label() + ": " + e));
        continue;
      }
      String tenant = checked.input().tenantId();
      if (!known.computeIfAbsent(tenant, t -> tenants.find(t).isPresent())) {
        errors.add(entry.label() + ": " + SourceCommands.unknownTenant(tenant));
        continue;
      }
      valid.add(new Validated(entry, checked.input(), UUID.randomUUID()));
    }
    if (!errors.isEmpty()) {
      fail(errors);
    }
    // Lock tenants in a fixed order so that two concurrent imports cannot deadlock.
    Map<String, List<Validated>> byTenant = new TreeMap<>();
    valid.forEach(
        v -> byTenant.computeIfAbsent(v.input().tenantId(), t -> new ArrayList<>()).add(v));
    Set<UUID> created =
        tx.execute(
            status -> {
              Set<UUID> ids = new HashSet<>();
              byTenant.forEach((tenant, batch) -> ids.addAll(importFor(tenant, batch)));
              return ids;
            });
    List<UUID> ids = valid.stream().map(Validated::id).filter(created::contains).toList();
    List<String> warnings = valid.stream().flatMap(v -> v.entry().warnings().stream()).toList();
    return new ImportResult(ids.size(), valid.size() - ids.size(), ids, warnings);
  }

  private List<UUID> importFor(String tenantId, List<Validated> batch) {
    TenantRow tenant =
        tenants
            .lock(tenantId)
            .orElseThrow(() -> ApiException.badRequest(SourceCommands.unknownTenant(tenantId)));
    Set<String> seen = sources.existingKeys(tenantId);
    List<NewSource> rows = new ArrayList<>();
    for (Validated v : batch) {
      if (seen.add(SourceRepository.key(v.input().connector(), v.input().url()))) {
        rows.add(commands.newSource(v.id(), v.input()));
      }
    }
    long count = sources.countByTenant(tenantId);
    int limit = TenantView.limitOf(tenant, props);
    if (count + rows.size() > limit) {
      throw ApiException.conflict(
          "tenant '"
              + tenantId
              + "' has "
              + count
              + " sources and its limit is "
              + limit
              + " (tier "
              + tenant.tier().wireName()
              + "): this import would add "
              + rows.size()
              + "; nothing was imported");
    }
    sources.insertAll(rows, clock.instant());
    return rows.stream().map(NewSource::id).toList();
  }

  private static void fail(List<String> errors) {
    throw ApiException.badRequest(ImportErrors.capped(errors));
  }

  private record Validated(ImportEntry entry, SourceInput input, UUID id) {}
}
