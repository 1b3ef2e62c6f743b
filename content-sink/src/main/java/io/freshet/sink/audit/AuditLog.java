package io.freshet.sink.audit;

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
import tools.jackson.databind.json.JsonMapper;

/**
 * The sink's {@code audit_log} table. {@link #record} and {@link #revise} must be called inside the
 * transaction of the change they record ({@link Propagation#MANDATORY}, as the scheduler's
 * AuditLog): a change and its record commit or roll back together, and a refused change leaves no
 * record.
 */
@Repository
public class AuditLog {

  private final JdbcClient jdbc;
  private final JsonMapper json;
  private final Clock clock;

  AuditLog(JdbcClient jdbc, JsonMapper json, Clock clock) {
    this.jdbc = jdbc;
    this.json = json;
    this.clock = clock;
  }

  /**
   * Records a change made by the key {@code keyId} (its id, never its text).
   *
   * @param tenantId the tenant the change belongs to; null for one made for every tenant
   * @param changes what changed (never a key's text or a secret)
   * @return the record's id, for {@link #revise}
   */
  @Transactional(propagation = Propagation.MANDATORY)
  public long record(
      String keyId, String tenantId, AuditAction action, String targetId, JsonNode changes) {
    return jdbc.sql(
            "INSERT INTO audit_log (at, key_id, tenant_id, action, target_id, changes)"
                + " VALUES (:at, :key, :tenant, :action, :target, CAST(:changes AS jsonb))"
                + " RETURNING id")
        .param("at", Timestamp.from(clock.instant()))
        .param("key", keyId)
        .param("tenant", tenantId)
        .param("action", action.wireName())
        .param("target", targetId)
        .param("changes", write(changes))
        .query(Long.class)
        .single();
  }

  /**
   * Replaces what record {@code id} says changed, in the transaction of a later part of the same
   * change (a cleanup's next batch), so that the record always matches what has been committed.
   */
  @Transactional(propagation = Propagation.MANDATORY)
  public void revise(long id, JsonNode changes) {
    jdbc.sql("UPDATE audit_log SET changes = CAST(:changes AS jsonb) WHERE id = :id")
        .param("changes", write(changes))
        .param("id", id)
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
                + " FROM audit_log"
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
                    json.readTree(rs.getString("changes_text"))))
        .list();
  }

  private String write(JsonNode changes) {
    return changes == null ? "{}" : json.writeValueAsString(changes);
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : t.toInstant();
  }
}
