package io.freshet.scheduler.api.sources;

import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.support.Json;
import io.freshet.scheduler.api.support.RequestBinder;
import io.freshet.scheduler.api.support.WireNames;
import io.freshet.scheduler.api.tenants.TenantLimits;
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

  SourceCommands(
      SourceRepository sources,
      TenantRepository tenants,
      TenantLimits limits,
      TransactionTemplate tx,
      CredentialCipher cipher,
      Rescheduler rescheduler,
      Clock clock,
      Json json,
      RequestBinder binder) {
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

  SourceView create(SourceRequest request) {
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
        });
    return view(id);
  }

  /**
   * An update changes only the fields the request names, so a field left out is never reset: the
   * request's fields are laid over the stored source's, and the result is bound and checked like a
   * creation. A named field replaces the stored one whole ({@code config} included); credentials
   * stay unless named ({@code "credentials": null} removes them).
   */
  SourceView update(UUID id, JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiException.badRequest("body: must be a JSON object");
    }
    SourceRow current = find(id);
    ObjectNode merged = json.mapper().createObjectNode();
    merged.put("tenant_id", current.tenantId());
    merged.put("name", current.name());
    merged.put("connector", WireNames.of(current.connector()));
    merged.put("url", current.url());
    merged.put("category", current.category());
    merged.put("priority", current.priority());
    merged.put("enabled", current.enabled());
    merged.set("config", json.read(current.configJson()));
    body.properties().forEach(e -> merged.set(e.getKey(), e.getValue()));
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
    if (named == null) {
      credentials = new SourceEdit.CredentialsChange.Keep();
    } else if (named.isNull()) {
      credentials = new SourceEdit.CredentialsChange.Remove();
    } else {
      credentials = new SourceEdit.CredentialsChange.Replace(seal(named));
    }
    var edit = new SourceEdit(fields(in), credentials);
    if (!sources.update(id, edit, clock.instant())) {
      throw notFound(id);
    }
    reschedule(id);
    return view(id);
  }

  SourceView setEnabled(UUID id, boolean enabled) {
    if (!sources.setEnabled(id, enabled, clock.instant())) {
      throw notFound(id);
    }
    if (enabled) {
      reschedule(id);
    }
    return view(id);
  }

  void delete(UUID id) {
    if (!sources.delete(id)) {
      throw notFound(id);
    }
  }

  FetchAccepted requestFetch(UUID id) {
    FetchRequest request =
        sources
            .requestFetch(id, clock.instant())
            .orElseThrow(
                () -> {
                  find(id);
                  return ApiException.conflict(
                      "source " + id + " is disabled; enable it before asking for a fetch");
                });
    return FetchAccepted.of(id, request);
  }

  SourceView view(UUID id) {
    return SourceView.of(find(id), json);
  }

  SourceRow find(UUID id) {
    return sources.find(id).orElseThrow(() -> notFound(id));
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
