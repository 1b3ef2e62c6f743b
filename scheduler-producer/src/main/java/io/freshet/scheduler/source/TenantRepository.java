package io.freshet.scheduler.source;

import io.freshet.cadence.source.Tier;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads and writes of {@code scheduler.tenants}. */
@Repository
public class TenantRepository {

  private final JdbcClient jdbc;

  TenantRepository(JdbcClient jdbc) {
    this.jdbc = jdbc;
  }

  /** Inserts a tenant; false if one with that id exists already. */
  public boolean insert(String id, Tier tier, Integer maxSources, Instant now) {
    return jdbc.sql(
                """
                INSERT INTO scheduler.tenants (id, tier, max_sources, created_at)
                VALUES (:id, :tier, :max, :now)
                ON CONFLICT (id) DO NOTHING
                """)
            .param("id", id)
            .param("tier", tier.wireName())
            .param("max", maxSources, Types.INTEGER)
            .param("now", SourceRepository.timestamp(now))
            .update()
        == 1;
  }

  public Optional<TenantRow> find(String id) {
    return jdbc.sql(
            "SELECT id, tier, max_sources, created_at FROM scheduler.tenants WHERE id = :id")
        .param("id", id)
        .query(TenantRepository::row)
        .optional();
  }

  /**
   * Reads the tenant and locks its row until the transaction ends, so that concurrent creations for
   * one tenant check its source limit one after the other. {@code FOR NO KEY UPDATE} does not block
   * the foreign-key checks of the inserted sources.
   */
  public Optional<TenantRow> lock(String id) {
    return jdbc.sql(
            """
            SELECT id, tier, max_sources, created_at FROM scheduler.tenants
            WHERE id = :id FOR NO KEY UPDATE
            """)
        .param("id", id)
        .query(TenantRepository::row)
        .optional();
  }

  /** Sets the tier and the source limit; false if there is no such tenant. */
  public boolean update(String id, Tier tier, Integer maxSources) {
    return jdbc.sql("UPDATE scheduler.tenants SET tier = :tier, max_sources = :max WHERE id = :id")
            .param("id", id)
            .param("tier", tier.wireName())
            .param("max", maxSources, Types.INTEGER)
            .update()
        == 1;
  }

  /** A tenant with how many sources it has. */
  public record Counted(TenantRow tenant, long sourceCount) {}

  /** Every tenant with its source count, by id; or only {@code only}, when given. */
  public List<Counted> listWithSourceCounts(Optional<String> only) {
    return jdbc.sql(
            """
            SELECT t.id, t.tier, t.max_sources, t.created_at,
                   (SELECT count(*) FROM scheduler.sources s WHERE s.tenant_id = t.id) AS sources
            FROM scheduler.tenants t
            WHERE CAST(:only AS text) IS NULL OR t.id = :only
            ORDER BY t.id
            """)
        .param("only", only.orElse(null))
        .query((rs, n) -> new Counted(row(rs, n), rs.getLong("sources")))
        .list();
  }

  /**
   * Reads the tenant and locks its row against every other lock until the transaction ends, so that
   * no source can be added to it meanwhile (creation and import lock the row too, and a source's
   * foreign-key check takes a share lock on it).
   */
  public Optional<TenantRow> lockForDelete(String id) {
    return jdbc.sql(
            "SELECT id, tier, max_sources, created_at FROM scheduler.tenants WHERE id = :id"
                + " FOR UPDATE")
        .param("id", id)
        .query(TenantRepository::row)
        .optional();
  }

  /** Deletes the tenant; its sources must be gone (the foreign key refuses otherwise). */
  public boolean delete(String id) {
    return jdbc.sql("DELETE FROM scheduler.tenants WHERE id = :id").param("id", id).update() == 1;
  }

  private static TenantRow row(ResultSet rs, int rowNum) throws SQLException {
    return new TenantRow(
        rs.getString("id"),
        Tier.parse(rs.getString("tier")).orElseThrow(),
        rs.getObject("max_sources", Integer.class),
        SourceRepository.instant(rs, "created_at"));
  }
}
