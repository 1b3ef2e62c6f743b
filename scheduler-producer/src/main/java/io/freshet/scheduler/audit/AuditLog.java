package io.freshet.scheduler.audit;

import io.freshet.kit.security.KeyPrincipal;
import io.freshet.scheduler.api.support.Json;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.JsonNode;

/**
 * The {@code audit_log} table. {@link #record} must be called inside the transaction of the change
 * it records ({@link Propagation#MANDATORY}): a change and its record commit or roll back together.
 */
@Repository
public class AuditLog {

  private final JdbcClient jdbc;
  private final Json json;
  private final Clock clock;

  AuditLog(JdbcClient jdbc, Json json, Clock clock) {
    this.jdbc = jdbc;
    this.json = json;
    this.clock = clock;
  }

  /**
   * Records a change made by {@code caller}.
   *
   * @param tenantId the tenant the change belongs to; null for one made for every tenant
   * @param changes what changed, already redacted ({@link AuditChanges})
   */
  @Transactional(propagation = Propagation.MANDATORY)
  public void record(
      KeyPrincipal caller, String tenantId, AuditAction action, String targetId, JsonNode changes) {
    jdbc.sql(
            "INSERT INTO scheduler.audit_log (at, key_id, tenant_id, action, target_id, changes)"
                + " VALUES (:at, :key, :tenant, :action, :target, CAST(:changes AS jsonb))")
        .param("at", Timestamp.from(clock.instant()))
        .param("key", caller.keyId())
        .param("tenant", tenantId)
        .param("action", action.wireName())
        .param("target", targetId)
        .param("changes", changes == null ? "{}" : json.write(changes))
        .update();
  }

  /**
   * Up to {@code limit} records, newest first.
   *
   * @param tenantId only this tenant's; empty for every record (an admin's view)
   * @param before only records with a smaller id (the previous page's {@code next_before})
   */
  public List<AuditEntry> list(Optional<String> tenantId, Long before, int limit) {
    return jdbc.sql(
            "SELECT id, at, key_id, tenant_id, action, target_id, changes::text AS changes_text"
                + " FROM scheduler.audit_log"
                + " WHERE (CAST(:tenant AS text) IS NULL OR tenant_id = :tenant)"
                + " AND (CAST(:before AS bigint) IS NULL OR id < :before)"
                + " ORDER BY id DESC LIMIT :limit")
        .param("tenant", tenantId.orElse(null))
        .param("before", before)
        .param("limit", limit)
        .query(
            (rs, n) ->
                new AuditEntry(
                    rs.getLong("id"),
                    instant(rs.getTimestamp("at")),
                    rs.getString("key_id"),
                    rs.getString("tenant_id"),
                    rs.getString("action"),
                    rs.getString("target_id"),
                    json.read(rs.getString("changes_text"))))
        .list();
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : t.toInstant();
  }
}
