package io.freshet.scheduler.api.keys;

import io.freshet.kit.security.ApiKeys;
import io.freshet.kit.security.KeyPrincipal;
import io.freshet.kit.security.Role;
import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.audit.AuditAction;
import io.freshet.scheduler.audit.AuditChanges;
import io.freshet.scheduler.audit.AuditLog;
import io.freshet.scheduler.source.TenantRepository;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * API keys, an admin's: create (the key is in the answer, once), list, read, revoke. Every change
 * reaches every service through the key topic ({@link KeyPublisher}), sent before the answer when
 * the broker is up, else by the next round. Creations and revocations are audited (the key's id,
 * tenant, role and expiry; never its text).
 */
@RestController
@RequestMapping(path = "/keys", produces = MediaType.APPLICATION_JSON_VALUE)
@Tag(name = "keys", description = "API keys: per tenant (read, write) or admin; admin keys only")
class KeyController {

  private static final Logger log = LoggerFactory.getLogger(KeyController.class);

  private final KeyRepository keys;
  private final TenantRepository tenants;
  private final KeyPublisher publisher;
  private final Clock clock;
  private final AuditLog audit;
  private final TransactionTemplate tx;

  KeyController(
      KeyRepository keys,
      TenantRepository tenants,
      KeyPublisher publisher,
      Clock clock,
      AuditLog audit,
      TransactionTemplate tx) {
    this.audit = audit;
    this.tx = tx;
    this.keys = keys;
    this.tenants = tenants;
    this.publisher = publisher;
    this.clock = clock;
  }

  @Operation(
      summary = "Create a key; the answer holds the key itself, the only time it is shown",
      description =
          "A read or write key names its tenant_id; an admin key names none. The key works on"
              + " every service within seconds.")
  @ResponseStatus(HttpStatus.CREATED)
  @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<KeyView.Created> create(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @RequestBody KeyRequest body,
      UriComponentsBuilder uri) {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Role role = check(body, now);
    var key = ApiKeys.generate();
    tx.executeWithoutResult(
        status -> {
          keys.insert(key.id(), body.tenantId(), role, key.secretSha256(), now, body.expiresAt());
          var changes = AuditChanges.of().put("role", role.wireName());
          changes.put("tenant_id", body.tenantId());
          changes.put("expires_at", body.expiresAt() == null ? null : body.expiresAt().toString());
          audit.record(caller, body.tenantId(), AuditAction.KEY_CREATE, key.id(), changes);
        });
    log.info("API key {} created: role {}, tenant {}", key.id(), role.wireName(), body.tenantId());
    publishNow();
    return ResponseEntity.created(uri.path("/keys/{id}").build(key.id()))
        .body(
            new KeyView.Created(
                key.id(), body.tenantId(), role.wireName(), now, body.expiresAt(), key.text()));
  }

  @Operation(summary = "Every key, or a tenant's: never a key's secret")
  @GetMapping
  KeyView.KeyList list(@RequestParam(name = "tenant_id", required = false) String tenantId) {
    return new KeyView.KeyList(keys.list(tenantId).stream().map(KeyView::of).toList());
  }

  @Operation(summary = "A key")
  @GetMapping("/{id}")
  KeyView get(@PathVariable String id) {
    return KeyView.of(keys.find(id).orElseThrow(() -> notFound(id)));
  }

  @Operation(
      summary = "Revoke a key: refused by every service within seconds; revoking twice is no error")
  @DeleteMapping("/{id}")
  KeyView revoke(
      @Parameter(hidden = true) @AuthenticationPrincipal KeyPrincipal caller,
      @PathVariable String id) {
    Boolean revoked =
        tx.execute(
            status -> {
              if (!keys.revoke(id, clock.instant().truncatedTo(ChronoUnit.MILLIS))) {
                return false;
              }
              KeyRow row = keys.find(id).orElseThrow();
              audit.record(
                  caller,
                  row.tenantId(),
                  AuditAction.KEY_REVOKE,
                  id,
                  AuditChanges.of().put("role", row.role().wireName()));
              return true;
            });
    if (Boolean.TRUE.equals(revoked)) {
      log.info("API key {} revoked", id);
      publishNow();
    }
    return get(id);
  }

  private Role check(KeyRequest body, Instant now) {
    List<String> errors = new ArrayList<>();
    Role role = Role.parse(body.role()).orElse(null);
    if (role == null) {
      errors.add("role: must be one of read, write, admin");
    } else if (role == Role.ADMIN && body.tenantId() != null) {
      errors.add("tenant_id: an admin key acts for every tenant; leave tenant_id out");
    } else if (role != Role.ADMIN && body.tenantId() == null) {
      errors.add("tenant_id: is required for a " + role.wireName() + " key");
    } else if (role != Role.ADMIN && tenants.find(body.tenantId()).isEmpty()) {
      errors.add("tenant_id: no tenant '" + body.tenantId() + "'");
    }
    if (body.expiresAt() != null && !body.expiresAt().isAfter(now)) {
      errors.add("expires_at: must be in the future");
    }
    if (!errors.isEmpty()) {
      throw ApiException.badRequest(errors);
    }
    return role;
  }

  /** Sends the change now; if the broker is away, the periodic round sends it later. */
  private void publishNow() {
    try {
      publisher.publishPending();
    } catch (RuntimeException e) {
      log.warn("API keys not published yet (the next round retries): {}", e.getMessage());
    }
  }

  private static ApiException notFound(String id) {
    return ApiException.notFound("no key '" + id + "'");
  }
}
