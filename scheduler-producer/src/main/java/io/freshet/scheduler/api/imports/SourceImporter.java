package io.freshet.scheduler.api.imports;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.sources.SourceCommands;
import io.freshet.scheduler.api.sources.SourceInput;
import io.freshet.scheduler.api.sources.SourceRequest;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.api.tenants.TenantLimits;
import io.freshet.scheduler.api.tenants.TenantRequest;
import io.freshet.scheduler.audit.AuditAction;
import io.freshet.scheduler.audit.AuditChanges;
import io.freshet.scheduler.audit.AuditLog;
import io.freshet.scheduler.config.SchedulerProperties;
import io.freshet.scheduler.schedule.CadenceTimeScale;
import io.freshet.scheduler.source.NewSource;
import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.scheduler.source.TenantRow;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Bulk import, all or nothing: every entry is bound and checked as a {@link SourceRequest} before
 * anything is written; then, in one transaction holding each tenant's row lock, sources the tenant
 * already has (same connector and URL) are skipped, the tenant's source limit is checked for the
 * whole batch ({@link TenantLimits}, as for one creation) and the rest is inserted, with one audit
 * record per tenant. A tenant key imports into its own tenant only: an entry naming another is
 * answered 404 ({@link KeyPrincipal#actingFor}) and nothing is imported.
 */
@Component
class SourceImporter {

  private final SourceCommands commands;
  private final SourceRepository sources;
  private final TenantRepository tenants;
  private final TenantLimits limits;
  private final RequestBinder binder;
  private final TransactionTemplate tx;
  private final Clock clock;

  private final Duration importSpread;
  private final CadenceTimeScale time;
  private final AuditLog audit;

  SourceImporter(
      SourceCommands commands,
      SourceRepository sources,
      TenantRepository tenants,
      TenantLimits limits,
      RequestBinder binder,
      TransactionTemplate tx,
      Clock clock,
      SchedulerProperties props,
      CadenceTimeScale time,
      AuditLog audit) {
    this.audit = audit;
    this.importSpread = props.web().importSpread();
    this.time = time;
    this.commands = commands;
    this.sources = sources;
    this.tenants = tenants;
    this.limits = limits;
    this.binder = binder;
    this.tx = tx;
    this.clock = clock;
  }

  /**
   * @param caller the key importing: every entry's tenant must be one it acts for
   * @param fallbackTenant the tenant entries without one are for (the {@code tenant_id} query
   *     parameter, or a tenant key's tenant); may be null when every entry names its tenant
   * @param format {@code ndjson} or {@code opml}, for the audit record
   */
  ImportResult run(
      KeyPrincipal caller, List<ImportEntry> entries, String fallbackTenant, String format) {
    if (fallbackTenant != null) {
      if (!fallbackTenant.matches(TenantRequest.ID_PATTERN)) {
        fail(List.of("tenant_id: " + TenantRequest.ID_RULE + " (query parameter)"));
      }
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
      RequestBinder.Bound<SourceRequest> bound =
          binder.bind(
              withTenant(entry.body(), fallbackTenant),
              SourceRequest.class,
              SourceRequest.Create.class);
      if (!bound.ok()) {
        bound.problems().forEach(e -> errors.add(entry.label() + ": " + e));
        continue;
      }
      String tenant = bound.value().tenantId();
      caller.actingFor(tenant); // another tenant's: 404, as if it did not exist
      if (!known.computeIfAbsent(tenant, t -> tenants.find(t).isPresent())) {
        errors.add(entry.label() + ": " + SourceCommands.unknownTenant(tenant));
        continue;
      }
      valid.add(new Validated(entry, SourceInput.of(bound.value()), UUID.randomUUID()));
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
              byTenant.forEach(
                  (tenant, batch) -> {
                    List<UUID> made = importFor(tenant, batch);
                    ids.addAll(made);
                    var changes =
                        AuditChanges.of()
                            .put("format", format)
                            .put("created", made.size())
                            .put("skipped", batch.size() - made.size());
                    var list = changes.putArray("source_ids");
                    made.forEach(id -> list.add(id.toString()));
                    audit.record(caller, tenant, AuditAction.IMPORT, null, changes);
                  });
              return ids;
            });
    List<UUID> ids = valid.stream().map(Validated::id).filter(created::contains).toList();
    List<String> warnings = valid.stream().flatMap(v -> v.entry().warnings().stream()).toList();
    return new ImportResult(ids.size(), valid.size() - ids.size(), ids, warnings);
  }

  /** The entry with the import's tenant when it names none. */
  private static JsonNode withTenant(JsonNode body, String fallbackTenant) {
    if (fallbackTenant == null
        || !(body instanceof ObjectNode object)
        || (object.has("tenant_id") && !object.get("tenant_id").isNull())) {
      return body;
    }
    ObjectNode copy = object.deepCopy();
    copy.put("tenant_id", fallbackTenant);
    return copy;
  }

  private List<UUID> importFor(String tenantId, List<Validated> batch) {
    TenantRow tenant = limits.lock(tenantId);
    Set<String> seen = sources.existingKeys(tenantId);
    List<NewSource> rows = new ArrayList<>();
    for (Validated v : batch) {
      if (seen.add(SourceRepository.key(v.input().connector(), v.input().url()))) {
        rows.add(commands.newSource(v.id(), v.input()));
      }
    }
    limits.checkRoom(tenant, rows.size());
    Instant now = clock.instant();
    // The spread is cadence time (the first interval): on a scaled cadence clock (a replay such as
    // the local demo) it is that much shorter in wall time.
    Duration wallSpread = Duration.between(now, time.toWall(time.toModel(now).plus(importSpread)));
    sources.insertAll(rows, now, wallSpread);
    return rows.stream().map(NewSource::id).toList();
  }

  private static void fail(List<String> errors) {
    throw ApiException.badRequest(ImportErrors.capped(errors));
  }

  private record Validated(ImportEntry entry, SourceInput input, UUID id) {}
}
