package io.freshet.scheduler.api;

import io.freshet.cadence.CadenceEngine;
import io.freshet.scheduler.schedule.Rescheduler;
import io.freshet.scheduler.source.FetchRequest;
import io.freshet.scheduler.source.NewSource;
import io.freshet.scheduler.source.SourceEdit;
import io.freshet.scheduler.source.SourceRepository;
import io.freshet.scheduler.source.SourceRow;
import io.freshet.scheduler.source.TenantRepository;
import io.freshet.scheduler.source.TenantRow;
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
class SourceCommands {

  private static final Logger log = LoggerFactory.getLogger(SourceCommands.class);

  private final SourceRepository sources;
  private final TenantRepository tenants;
  private final TransactionTemplate tx;
  private final CredentialCipher cipher;
  private final Rescheduler rescheduler;
  private final Clock clock;
  private final ApiProperties props;
  private final SourceValidator validator;

  SourceCommands(
      SourceRepository sources,
      TenantRepository tenants,
      TransactionTemplate tx,
      CredentialCipher cipher,
      Rescheduler rescheduler,
      Clock clock,
      ApiProperties props,
      CadenceEngine engine) {
    this.sources = sources;
    this.tenants = tenants;
    this.tx = tx;
    this.cipher = cipher;
    this.rescheduler = rescheduler;
    this.clock = clock;
    this.props = props;
    this.validator = new SourceValidator(engine.parser());
  }

  SourceValidator validator() {
    return validator;
  }

  SourceView create(JsonNode body) {
    SourceValidator.Checked checked = validator.validate(body, null, true);
    List<String> errors = new ArrayList<>(checked.errors());
    JsonNode tenantNode = body.isObject() ? body.get("tenant_id") : null;
    if (SourceValidator.checkTenantId("tenant_id", tenantNode).isEmpty()
        && tenants.find(tenantNode.stringValue()).isEmpty()) {
      errors.add(unknownTenant(tenantNode.stringValue()));
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    SourceInput in = checked.input();
    UUID id = UUID.randomUUID();
    NewSource row = newSource(id, in);
    tx.executeWithoutResult(
        status -> {
          TenantRow tenant =
              tenants
                  .lock(in.tenantId())
                  .orElseThrow(() -> ApiException.badRequest(unknownTenant(in.tenantId())));
          long count = sources.countByTenant(tenant.id());
          int limit = TenantView.limitOf(tenant, props);
          if (count + 1 > limit) {
            throw ApiException.conflict(
                "tenant '"
                    + tenant.id()
                    + "' has reached its limit of "
                    + limit
                    + " sources (tier "
                    + tenant.tier().wireName()
                    + "); delete sources or raise the tier or max_sources with PUT /tenants/"
                    + tenant.id());
          }
          sources.insert(row, clock.instant());
        });
    return view(id);
  }

  SourceView update(UUID id, JsonNode body) {
    SourceRow current = find(id);
    SourceValidator.Checked checked = validator.validate(mergedOnto(current, body), null, false);
    List<String> errors = new ArrayList<>(checked.errors());
    if (checked.ok()
        && checked.input().tenantId() != null
        && !checked.input().tenantId().equals(current.tenantId())) {
      errors.add(
          "tenant_id: cannot be changed; this source belongs to tenant '"
              + current.tenantId()
              + "'");
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    SourceInput in = checked.input();
    SourceEdit.CredentialsChange credentials;
    if (in.credentials() == null) {
      credentials = new SourceEdit.CredentialsChange.Keep();
    } else if (in.credentials().isNull()) {
      credentials = new SourceEdit.CredentialsChange.Remove();
    } else {
      credentials = new SourceEdit.CredentialsChange.Replace(seal(in.credentials()));
    }
    var edit =
        new SourceEdit(
            in.name(),
            in.connector(),
            in.url(),
            in.host(),
            in.categoryName(),
            in.priority(),
            in.enabled(),
            Json.write(in.config()),
            credentials);
    if (!sources.update(id, edit, clock.instant())) {
      throw notFound(id);
    }
    reschedule(id);
    return view(id);
  }

  /**
   * An update changes only the fields the request names (issue 7, defect 5): the stored source's
   * editable fields, with the request's top-level fields laid over them. A named field replaces the
   * stored one whole ({@code config} included); credentials stay unless named.
   */
  private static JsonNode mergedOnto(SourceRow current, JsonNode body) {
    if (body == null || !body.isObject()) {
      return body; // the validator says why
    }
    ObjectNode merged = Json.MAPPER.createObjectNode();
    merged.put("name", current.name());
    merged.put("connector", current.connector().wireName());
    merged.put("url", current.url());
    if (current.category() != null) {
      merged.put("category", current.category());
    }
    merged.put("priority", current.priority());
    merged.put("enabled", current.enabled());
    merged.set("config", Json.read(current.configJson()));
    body.properties().forEach(e -> merged.set(e.getKey(), e.getValue()));
    return merged;
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
    return SourceView.of(find(id));
  }

  SourceRow find(UUID id) {
    return sources.find(id).orElseThrow(() -> notFound(id));
  }

  NewSource newSource(UUID id, SourceInput in) {
    return new NewSource(
        id,
        in.tenantId(),
        in.name(),
        in.connector(),
        in.url(),
        in.host(),
        in.categoryName(),
        in.priority(),
        in.enabled(),
        Json.write(in.config()),
        in.hasCredentials() ? seal(in.credentials()) : null);
  }

  /** Seals the credentials' JSON text; the fetch-worker opens and parses it. */
  private byte[] seal(JsonNode credentials) {
    return cipher.encrypt(Json.write(credentials));
  }

  private void reschedule(UUID id) {
    try {
      rescheduler.reschedule(id);
    } catch (RuntimeException e) {
      // The edit is committed; the old due time is still a valid schedule until the next outcome.
      log.warn("could not recompute the due time of source {} after an edit", id, e);
    }
  }

  static String unknownTenant(String tenantId) {
    return "tenant_id: no tenant '" + tenantId + "'; create it first with POST /tenants";
  }

  static ApiException notFound(UUID id) {
    return ApiException.notFound("no source with id " + id);
  }
}
