package io.freshet.scheduler.api.sources;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.support.Json;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.api.support.SecretRedactor;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.api.tenants.TenantLimits;
import io.freshet.scheduler.audit.AuditAction;
import io.freshet.scheduler.audit.AuditChanges;
import io.freshet.scheduler.audit.AuditLog;
import io.freshet.scheduler.schedule.FetchRequest;
import io.freshet.scheduler.schedule.Rescheduler;
import io.freshet.scheduler.source.NewSource;
import io.freshet.scheduler.source.SourceEdit;
import io.freshet.scheduler.source.SourceFields;
import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.SourceRow;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.schemas.crypto.CredentialCipher;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the source endpoints do: validation, the tenant's source limit, sealing credentials, and
 * asking for a new due time after an edit. Creation locks the tenant row, so concurrent requests
 * cannot together exceed the limit.
 *
 * <p>Every command acts for its caller's key ({@link KeyPrincipal}): a tenant key sees and changes
 * only its tenant's sources — another tenant's is answered 404 exactly as a missing one — and every
 * change is audited ({@link AuditLog}) in the transaction that makes it.
 */
@Component
public class SourceCommands {

  private static final Logger log = LoggerFactory.getLogger(SourceCommands.class);

  private final SourceRepository sources;
  private final TenantRepository tenants;
  private final TenantLimits limits;
  private final TransactionTemplate tx;
  private final CredentialCipher cipher;
  private final Rescheduler rescheduler;
  private final Clock clock;
  private final Json json;
  private final RequestBinder binder;
  private final AuditLog audit;

  SourceCommands(
      SourceRepository sources,
      TenantRepository tenants,
      TenantLimits limits,
      TransactionTemplate tx,
      CredentialCipher cipher,
      Rescheduler rescheduler,
      Clock clock,
      Json json,
      RequestBinder binder,
      AuditLog audit) {
    this.audit = audit;
    this.sources = sources;
    this.tenants = tenants;
    this.limits = limits;
    this.tx = tx;
    this.cipher = cipher;
    this.rescheduler = rescheduler;
    this.clock = clock;
    this.json = json;
    this.binder = binder;
  }

  SourceView create(KeyPrincipal caller, SourceRequest body) {
    // the tenant comes from the key: a tenant key may leave tenant_id out, an admin must name it
    SourceRequest request = body.withTenant(caller.actingFor(body.tenantId()).orElse(null));
    List<String> errors = new ArrayList<>(binder.problems(request, SourceRequest.Create.class));
    if (errors.stream().noneMatch(e -> e.startsWith("tenant_id:"))
        && tenants.find(request.tenantId()).isEmpty()) {
      errors.add(unknownTenant(request.tenantId()));
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    SourceInput in = SourceInput.of(request);
    UUID id = UUID.randomUUID();
    NewSource row = newSource(id, in);
    tx.executeWithoutResult(
        status -> {
          limits.checkRoom(limits.lock(in.tenantId()), 1);
          sources.insert(row, clock.instant());
          audit.record(
              caller,
              in.tenantId(),
              AuditAction.SOURCE_CREATE,
              id.toString(),
              AuditChanges.wrap("source", state(in)));
        });
    return view(caller, id);
  }

  /**
   * An update changes only the fields the request names, so a field left out is never reset: the
   * request's fields are laid over the stored source's, and the result is bound and checked like a
   * creation. A named field replaces the stored one whole ({@code config} included); credentials
   * stay unless named ({@code "credentials": null} removes them).
   */
  /**
   * The fields of a source as {@code GET /sources/{id}} shows it that a request cannot set: a PUT
   * of exactly what a GET returned ignores them ({@code id} must then be the source's own).
   */
  static final Set<String> VIEW_ONLY =
      Set.of(
          "id",
          "has_credentials",
          "cursor",
          "schedule",
          "stats",
          "server",
          "created_at",
          "updated_at");

  SourceView update(KeyPrincipal caller, UUID id, JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiException.badRequest("body: must be a JSON object");
    }
    SourceRow current = find(caller, id);
    JsonNode namedTenant = body.get("tenant_id");
    if (namedTenant != null && namedTenant.isString()) {
      caller.actingFor(namedTenant.stringValue());
    }
    JsonNode sentId = body.get("id");
    if (sentId != null && !sentId.isNull() && !id.toString().equals(sentId.asString(""))) {
      throw ApiException.badRequest("id: cannot be changed; must be '" + id + "' or left out");
    }
    JsonNode storedConfig = json.read(current.configJson());
    ObjectNode merged = json.mapper().createObjectNode();
    merged.put("tenant_id", current.tenantId());
    merged.put("name", current.name());
    merged.put("connector", WireNames.of(current.connector()));
    merged.put("url", current.url());
    merged.put("category", current.category());
    merged.put("priority", current.priority());
    merged.put("enabled", current.enabled());
    merged.set("config", storedConfig);
    body.properties().stream()
        .filter(e -> !VIEW_ONLY.contains(e.getKey()))
        .forEach(e -> merged.set(e.getKey(), e.getValue()));
    // What a client read it can write back: *** where the API masked a stored secret keeps it —
    // while the source stays on its server: a secret never follows a URL to another one.
    JsonNode url = merged.get("url");
    if (url != null
        && url.isString()
        && SecretRedactor.sameOrigin(url.stringValue(), current.url())) {
      merged.put("url", SecretRedactor.restoreUrl(url.stringValue(), current.url()));
      merged.set("config", SecretRedactor.restore(merged.get("config"), storedConfig));
    }
    RequestBinder.Bound<SourceRequest> bound =
        binder.bind(merged, SourceRequest.class, SourceRequest.Create.class);
    List<String> errors = new ArrayList<>(bound.problems());
    if (bound.ok() && !bound.value().tenantId().equals(current.tenantId())) {
      errors.add(
          "tenant_id: cannot be changed; this source belongs to tenant '"
              + current.tenantId()
              + "'");
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    SourceInput in = SourceInput.of(bound.value());
    JsonNode named = body.get("credentials");
    SourceEdit.CredentialsChange credentials;
    String credentialsChange;
    if (named == null) {
      credentials = new SourceEdit.CredentialsChange.Keep();
      credentialsChange = "kept";
    } else if (named.isNull()) {
      credentials = new SourceEdit.CredentialsChange.Remove();
      credentialsChange = "removed";
    } else {
      credentials = new SourceEdit.CredentialsChange.Replace(seal(named));
      credentialsChange = "replaced";
    }
    var edit = new SourceEdit(fields(in), credentials);
    tx.executeWithoutResult(
        status -> {
          if (!sources.update(id, edit, clock.instant())) {
            throw notFound(id);
          }
          ObjectNode before = state(current);
          ObjectNode after = state(in);
          after.put(
              "has_credentials",
              credentialsChange.equals("kept") ? current.hasCredentials() : in.hasCredentials());
          ObjectNode changes = AuditChanges.wrap("changed", AuditChanges.diff(before, after));
          changes.put("credentials", credentialsChange);
          audit.record(
              caller, current.tenantId(), AuditAction.SOURCE_UPDATE, id.toString(), changes);
        });
    reschedule(id);
    return view(caller, id);
  }

  SourceView setEnabled(KeyPrincipal caller, UUID id, boolean enabled) {
    SourceRow current = find(caller, id);
    tx.executeWithoutResult(
        status -> {
          if (!sources.setEnabled(id, enabled, clock.instant())) {
            throw notFound(id);
          }
          audit.record(
              caller,
              current.tenantId(),
              enabled ? AuditAction.SOURCE_ENABLE : AuditAction.SOURCE_DISABLE,
              id.toString(),
              AuditChanges.diff(
                  AuditChanges.of().put("enabled", current.enabled()),
                  AuditChanges.of().put("enabled", enabled)));
        });
    if (enabled) {
      reschedule(id);
    }
    return view(caller, id);
  }

  void delete(KeyPrincipal caller, UUID id) {
    SourceRow current = find(caller, id);
    tx.executeWithoutResult(
        status -> {
          if (!sources.delete(id)) {
            throw notFound(id);
          }
          audit.record(
              caller,
              current.tenantId(),
              AuditAction.SOURCE_DELETE,
              id.toString(),
              AuditChanges.wrap("source", state(current)));
        });
  }

  FetchAccepted requestFetch(KeyPrincipal caller, UUID id) {
    SourceRow current = find(caller, id);
    FetchRequest request =
        tx.execute(
            status -> {
              FetchRequest accepted =
                  sources
                      .requestFetch(id, clock.instant())
                      .orElseThrow(
                          () -> {
                            find(caller, id);
                            return ApiException.conflict(
                                "source "
                                    + id
                                    + " is disabled; enable it before asking for a fetch");
                          });
              audit.record(
                  caller,
                  current.tenantId(),
                  AuditAction.SOURCE_FETCH_NOW,
                  id.toString(),
                  AuditChanges.of()
                      .put("next_due_at", String.valueOf(accepted.nextDueAt()))
                      .put("in_flight", accepted.inFlight()));
              return accepted;
            });
    return FetchAccepted.of(id, request);
  }

  SourceView view(KeyPrincipal caller, UUID id) {
    return SourceView.of(find(caller, id), json);
  }

  /**
   * The source, if the caller's key sees it: another tenant's is 404 with the body of a missing one
   * ({@link KeyPrincipal#sees}).
   */
  SourceRow find(KeyPrincipal caller, UUID id) {
    return sources
        .find(id)
        .filter(row -> caller.sees(row.tenantId()))
        .orElseThrow(() -> notFound(id));
  }

  /** A source's user-set state for the audit log, redacted. */
  private ObjectNode state(SourceRow row) {
    return AuditChanges.source(
        row.name(),
        WireNames.of(row.connector()),
        row.url(),
        row.category(),
        row.priority(),
        row.enabled(),
        json.read(row.configJson()),
        row.hasCredentials());
  }

  /** A valid input's state for the audit log, redacted. */
  public static ObjectNode state(SourceInput in) {
    return AuditChanges.source(
        in.name(),
        WireNames.of(in.connector()),
        in.url(),
        in.categoryName(),
        in.priority(),
        in.enabled(),
        in.config(),
        in.hasCredentials());
  }

  /** The row to insert for a valid input, its credentials sealed. */
  public NewSource newSource(UUID id, SourceInput in) {
    return new NewSource(
        id, in.tenantId(), fields(in), in.hasCredentials() ? seal(in.credentials()) : null);
  }

  private SourceFields fields(SourceInput in) {
    return new SourceFields(
        in.name(),
        in.connector(),
        in.url(),
        in.host(),
        in.categoryName(),
        in.priority(),
        in.enabled(),
        json.write(in.config()));
  }

  /** Seals the credentials' JSON text; the fetch-worker opens and parses it. */
  private byte[] seal(JsonNode credentials) {
    return cipher.encrypt(json.write(credentials));
  }

  private void reschedule(UUID id) {
    try {
      rescheduler.reschedule(id);
    } catch (RuntimeException e) {
      // The edit is committed; the old due time is still a valid schedule until the next outcome.
      log.warn("could not recompute the due time of source {} after an edit", id, e);
    }
  }

  public static String unknownTenant(String tenantId) {
    return "tenant_id: no tenant '" + tenantId + "'; create it first with POST /tenants";
  }

  static ApiException notFound(UUID id) {
    return ApiException.notFound("no source with id " + id);
  }
}
