package io.freshet.kit.audit;

import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A service's audit table ({@code id, at, key_id, tenant_id, action, target_id, changes jsonb}, as
 * the scheduler's V7 and the sink's V5 migrations create it): every change made through the API,
 * with the key id that made it (never the key), its tenant and what changed (the caller redacts
 * secrets). {@link #record} and {@link #revise} refuse to run outside a transaction, so a change
 * and its record commit or roll back together and a refused change leaves no record.
 */
public final class AuditTrail {

  private static final Pattern TABLE = Pattern.compile("[a-z_]+(\\.[a-z_]+)?");

  private final JdbcClient jdbc;
  private final JsonMapper json;
  private final Clock clock;
  private final String insert;
  private final String update;
  private final String select;

  /**
   * @param table the audit table, optionally schema-qualified ({@code scheduler.audit_log})
   */
  public AuditTrail(JdbcClient jdbc, JsonMapper json, Clock clock, String table) {
    if (!TABLE.matcher(table).matches()) {
      throw new IllegalArgumentException("not a table name: " + table);
    }
    this.jdbc = jdbc;
    this.json = json;
    this.clock = clock;
    this.insert =
        "INSERT INTO "
            + table
            + " (at, key_id, tenant_id, action, target_id, changes)"
            + " VALUES (:at, :key, :tenant, :action, :target, CAST(:changes AS jsonb)) RETURNING id";
    this.update = "UPDATE " + table + " SET changes = CAST(:changes AS jsonb) WHERE id = :id";
    this.select =
        "SELECT id, at, key_id, tenant_id, action, target_id, changes::text AS changes_text FROM "
            + table
            + " WHERE (CAST(:tenant AS text) IS NULL OR tenant_id = :tenant)"
            + " AND (CAST(:before AS bigint) IS NULL OR id < :before)"
            + " ORDER BY id DESC LIMIT :limit";
  }

  /**
   * Records a change made by the key {@code keyId}, in the transaction of the change.
   *
   * @param tenantId the tenant the change belongs to; null for one made for every tenant
   * @param action what was done, e.g. {@code source.update}
   * @param changes what changed, secrets already redacted
   * @return the record's id, for {@link #revise}
   * @throws IllegalTransactionStateException outside a transaction
   */
  public long record(
      String keyId, String tenantId, String action, String targetId, JsonNode changes) {
    requireTransaction();
    return jdbc.sql(insert)
        .param("at", Timestamp.from(clock.instant()))
        .param("key", keyId)
        .param("tenant", tenantId)
        .param("action", action)
        .param("target", targetId)
        .param("changes", write(changes))
        .query(Long.class)
        .single();
  }

  /**
   * Replaces what record {@code id} says changed, in the transaction of a later part of the same
   * change (a cleanup's next batch), so that the record always matches what has been committed.
   *
   * @throws IllegalTransactionStateException outside a transaction
   */
  public void revise(long id, JsonNode changes) {
    requireTransaction();
    jdbc.sql(update).param("changes", write(changes)).param("id", id).update();
  }

  /**
   * Up to {@code limit} records, newest first.
   *
   * @param tenantId only this tenant's; empty for every record (an admin's view)
   * @param before only records with a smaller id (the previous page's {@code next_before})
   */
  public List<AuditEntry> list(Optional<String> tenantId, Long before, int limit) {
    return jdbc.sql(select)
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

  /**
   * A page of at most {@code size} records, newest first, and where the next (older) page starts.
   *
   * @param tenantId only this tenant's; empty for every record (an admin's view)
   * @param before only records with a smaller id (the previous page's {@code next_before})
   */
  public AuditPage page(Optional<String> tenantId, Long before, int size) {
    List<AuditEntry> entries = list(tenantId, before, size + 1);
    boolean more = entries.size() > size;
    List<AuditEntry> page = more ? entries.subList(0, size) : entries;
    return new AuditPage(List.copyOf(page), more ? page.getLast().id() : null);
  }

  private static void requireTransaction() {
    if (!TransactionSynchronizationManager.isActualTransactionActive()) {
      throw new IllegalTransactionStateException(
          "an audit record is written in the transaction of the change it records");
    }
  }

  private String write(JsonNode changes) {
    return changes == null ? "{}" : json.writeValueAsString(changes);
  }

  private static Instant instant(Timestamp t) {
    return t == null ? null : t.toInstant();
  }
}
