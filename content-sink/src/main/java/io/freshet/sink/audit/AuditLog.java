package io.freshet.sink.audit;

import io.freshet.kit.audit.AuditPage;
import io.freshet.kit.audit.AuditTrail;
import java.time.Clock;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sink's {@code audit_log}, through the service kit's {@link AuditTrail}: {@link #record} and
 * {@link #revise} run only inside the transaction of the change they record, so a change and its
 * record commit or roll back together, and a refused change leaves no record.
 */
@Repository
public class AuditLog {

  private final AuditTrail trail;

  AuditLog(JdbcClient jdbc, JsonMapper json, Clock clock) {
    this.trail = new AuditTrail(jdbc, json, clock, "audit_log");
  }

  /**
   * Records a change made by the key {@code keyId} (its id, never its text).
   *
   * @param tenantId the tenant the change belongs to; null for one made for every tenant
   * @param changes what changed (never a key's text or a secret)
   * @return the record's id, for {@link #revise}
   */
  public long record(
      String keyId, String tenantId, AuditAction action, String targetId, JsonNode changes) {
    return trail.record(keyId, tenantId, action.wireName(), targetId, changes);
  }

  /** Replaces what record {@code id} says changed ({@link AuditTrail#revise}). */
  public void revise(long id, JsonNode changes) {
    trail.revise(id, changes);
  }

  /** A page of at most {@code size} records, newest first ({@link AuditTrail#page}). */
  public AuditPage page(Optional<String> tenantId, Long before, int size) {
    return trail.page(tenantId, before, size);
  }
}
