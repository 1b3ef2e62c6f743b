package io.freshet.scheduler.testing;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** Inserts one {@code scheduler.sources} row; every column has a default. */
public final class SourceRow {

  private final JdbcClient jdbc;
  private final String tenant;
  private UUID id = UUID.randomUUID();
  private String host = "feeds.example.org";
  private String config = "{\"cadence\":{\"mode\":\"interval\",\"every_minutes\":60}}";
  private String cursor = "{}";
  private boolean enabled = true;
  private int priority;
  private Instant nextDueAt = Instant.now().minusSeconds(1);
  private Instant leaseUntil;
  private long epoch;

  SourceRow(JdbcClient jdbc, String tenant) {
    this.jdbc = jdbc;
    this.tenant = tenant;
  }

  public SourceRow host(String v) {
    host = v;
    return this;
  }

  public SourceRow config(String v) {
    config = v;
    return this;
  }

  public SourceRow cursor(String v) {
    cursor = v;
    return this;
  }

  public SourceRow enabled(boolean v) {
    enabled = v;
    return this;
  }

  public SourceRow priority(int v) {
    priority = v;
    return this;
  }

  public SourceRow nextDueAt(Instant v) {
    nextDueAt = v;
    return this;
  }

  /** As if claimed: a running lease with this epoch. */
  public SourceRow claimed(long claimEpoch, Instant until) {
    epoch = claimEpoch;
    leaseUntil = until;
    nextDueAt = until;
    return this;
  }

  public UUID insert() {
    jdbc.sql(
            """
            INSERT INTO scheduler.sources (id, tenant_id, name, connector, url, host, config_json,
              cursor_json, enabled, priority, next_due_at, lease_until, epoch)
            VALUES (:id, :tenant, :name, 'feed', :url, :host, :config::jsonb, :cursor::jsonb,
              :enabled, :priority, :due, :lease, :epoch)
            """)
        .param("id", id)
        .param("tenant", tenant)
        .param("name", "source " + id)
        .param("url", "https://" + host + "/" + id + ".xml")
        .param("host", host)
        .param("config", config)
        .param("cursor", cursor)
        .param("enabled", enabled)
        .param("priority", priority)
        .param("due", Timestamp.from(nextDueAt))
        .param("lease", leaseUntil == null ? null : Timestamp.from(leaseUntil))
        .param("epoch", epoch)
        .update();
    return id;
  }
}
