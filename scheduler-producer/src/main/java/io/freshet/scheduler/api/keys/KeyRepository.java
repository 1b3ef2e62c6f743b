package io.freshet.scheduler.api.keys;

import io.freshet.kit.security.Role;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The {@code api_keys} table. */
@Repository
public class KeyRepository {

  private static final String COLUMNS =
      "id, tenant_id, role, secret_sha256, created_at, last_used_at, expires_at, revoked_at,"
          + " version";

  private final JdbcClient jdbc;
  private final JdbcTemplate template;

  KeyRepository(JdbcClient jdbc, JdbcTemplate template) {
    this.jdbc = jdbc;
    this.template = template;
  }

  void insert(
      String id, String tenantId, Role role, byte[] digest, Instant createdAt, Instant expiresAt) {
    jdbc.sql(
            "INSERT INTO scheduler.api_keys (id, tenant_id, role, secret_sha256, created_at, expires_at)"
                + " VALUES (:id, :tenant, :role, :digest, :created, :expires)")
        .param("id", id)
        .param("tenant", tenantId)
        .param("role", role.wireName())
        .param("digest", digest)
        .param("created", Timestamp.from(createdAt))
        .param("expires", expiresAt == null ? null : Timestamp.from(expiresAt))
        .update();
  }

  Optional<KeyRow> find(String id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM scheduler.api_keys WHERE id = :id")
        .param("id", id)
        .query(KeyRepository::row)
        .optional();
  }

  /** Every key, or a tenant's, oldest first. */
  List<KeyRow> list(String tenantId) {
    if (tenantId == null) {
      return jdbc.sql("SELECT " + COLUMNS + " FROM scheduler.api_keys ORDER BY created_at, id")
          .query(KeyRepository::row)
          .list();
    }
    return jdbc.sql(
            "SELECT "
                + COLUMNS
                + " FROM scheduler.api_keys WHERE tenant_id = :tenant ORDER BY created_at, id")
        .param("tenant", tenantId)
        .query(KeyRepository::row)
        .list();
  }

  /** Revokes the key unless it is already; whether this call revoked it. */
  boolean revoke(String id, Instant at) {
    return jdbc.sql(
                "UPDATE scheduler.api_keys SET revoked_at = :at, version = version + 1"
                    + " WHERE id = :id AND revoked_at IS NULL")
            .param("id", id)
            .param("at", Timestamp.from(at))
            .update()
        == 1;
  }

  /**
   * Revokes every key of the tenant (when it is deleted); how many. The key publisher sends the
   * revocations within {@code freshet.keys.publish-interval}.
   */
  public int revokeTenant(String tenantId, Instant at) {
    return jdbc.sql(
            "UPDATE scheduler.api_keys SET revoked_at = :at, version = version + 1"
                + " WHERE tenant_id = :tenant AND revoked_at IS NULL")
        .param("tenant", tenantId)
        .param("at", Timestamp.from(at))
        .update();
  }

  /**
   * Locks up to {@code limit} keys whose latest change is not yet published (others publishing skip
   * them): to be called in a transaction that marks them published.
   */
  List<KeyRow> lockUnpublished(int limit) {
    return jdbc.sql(
            "SELECT "
                + COLUMNS
                + " FROM scheduler.api_keys WHERE published_version < version ORDER BY id LIMIT :limit"
                + " FOR UPDATE SKIP LOCKED")
        .param("limit", limit)
        .query(KeyRepository::row)
        .list();
  }

  void markPublished(String id, long version) {
    jdbc.sql("UPDATE scheduler.api_keys SET published_version = :version WHERE id = :id")
        .param("id", id)
        .param("version", version)
        .update();
  }

  /** Marks every key for publishing again (at start: the topic may have been lost or reset). */
  int republishAll() {
    return jdbc.sql(
            "UPDATE scheduler.api_keys SET published_version = 0 WHERE published_version <> 0")
        .update();
  }

  /** Moves {@code last_used_at} forward, one batch for all the keys. */
  void touch(Map<String, Instant> lastUse) {
    List<Object[]> args = new ArrayList<>();
    lastUse.forEach((id, at) -> args.add(new Object[] {Timestamp.from(at), id}));
    if (!args.isEmpty()) {
      template.batchUpdate(
          "UPDATE scheduler.api_keys SET last_used_at = GREATEST(last_used_at, ?) WHERE id = ?",
          args);
    }
  }

  private static KeyRow row(ResultSet rs, int i) throws SQLException {
    return new KeyRow(
        rs.getString("id"),
        rs.getString("tenant_id"),
        Role.parse(rs.getString("role")).orElseThrow(),
        rs.getBytes("secret_sha256"),
        instant(rs, "created_at"),
        instant(rs, "last_used_at"),
        instant(rs, "expires_at"),
        instant(rs, "revoked_at"),
        rs.getLong("version"));
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp ts = rs.getTimestamp(column);
    return ts == null ? null : ts.toInstant();
  }
}
