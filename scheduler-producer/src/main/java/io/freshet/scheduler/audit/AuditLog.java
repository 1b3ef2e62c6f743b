package io.freshet.scheduler.audit;

import io.freshet.kit.audit.AuditPage;
import io.freshet.kit.audit.AuditTrail;
import io.freshet.kit.security.KeyPrincipal;
import java.time.Clock;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The scheduler's {@code scheduler.audit_log}, through the service kit's {@link AuditTrail}: {@link
 * #record} runs only inside the transaction of the change it records, so a change and its record
 * commit or roll back together.
 */
@Repository
public class AuditLog {

  private final AuditTrail trail;

  AuditLog(JdbcClient jdbc, Clock clock) {
    this.trail = new AuditTrail(jdbc, JsonMapper.builder().build(), clock, "scheduler.audit_log");
  }

  /**
   * Records a change made by {@code caller}.
   *
   * @param tenantId the tenant the change belongs to; null for one made for every tenant
   * @param changes what changed, already redacted ({@link AuditChanges})
   */
  public void record(
      KeyPrincipal caller, String tenantId, AuditAction action, String targetId, JsonNode changes) {
    trail.record(caller.keyId(), tenantId, action.wireName(), targetId, changes);
  }

  /** A page of at most {@code size} records, newest first ({@link AuditTrail#page}). */
  public AuditPage page(Optional<String> tenantId, Long before, int size) {
    return trail.page(tenantId, before, size);
  }
}
