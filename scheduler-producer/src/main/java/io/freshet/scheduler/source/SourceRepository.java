package io.freshet.scheduler.source;

import io.freshet.scheduler.schedule.FetchRequest;
import io.freshet.scheduler.schedule.Jitter;
import io.freshet.scheduler.schedule.ScheduleRepository;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The API's reads and writes of {@code scheduler.sources}. It never writes the schedule columns
 * (due time, lease, epoch, misses, manual flag): {@link ScheduleRepository} owns those.
 */
@Repository
public class SourceRepository {

  private static final String COLUMNS =
      """
      id, tenant_id, name, connector, url, host, category, priority, enabled,
      config_json::text AS config_text, cursor_json::text AS cursor_text,
      credentials_encrypted IS NOT NULL AS has_credentials,
      next_due_at, lease_until, epoch, manual_requested, last_status, last_error,
      last_outcome_at, retry_after, consecutive_misses, consecutive_empty,
      window_fetches, avg_signal_yield, dominant_signal_type, type_counts::text AS type_counts_text,
      median_days_to_event, publish_interval_avg_ms, change_rate, stats_updated_at,
      hints::text AS hints_text, hint_not_before, moved_to, self_url, hub_url, disabled_reason,
      (SELECT json_agg(json_build_object('url', h.url, 'replaced_by', h.replaced_by,
                                         'reason', h.reason, 'replaced_at', h.replaced_at)
                       ORDER BY h.id)::text
         FROM scheduler.source_url_history h WHERE h.source_id = sources.id) AS previous_urls_text,
      created_at, updated_at
      """;

  private static final String INSERT =
      """
      INSERT INTO scheduler.sources
          (id, tenant_id, name, connector, url, host, category, priority, enabled, config_json,
           credentials_encrypted, next_due_at, created_at, updated_at)
      VALUES (:id, :tenant, :name, :connector, :url, :host, :category, :priority, :enabled,
              CAST(:config AS jsonb), :credentials, :due, :now, :now)
      """;

  private static final int BATCH = 500;

  private final JdbcClient jdbc;
  private final NamedParameterJdbcTemplate named;
  private final ScheduleRepository schedule;

  SourceRepository(JdbcClient jdbc, NamedParameterJdbcTemplate named, ScheduleRepository schedule) {
    this.schedule = schedule;
    this.jdbc = jdbc;
    this.named = named;
  }

  /** Inserts a source, due at {@code now}. */
  public void insert(NewSource source, Instant now) {
    named.update(INSERT, params(source, now));
  }

  /**
   * Inserts many sources in JDBC batches. Their first fetches are spread over {@code spread} from
   * {@code now}, each source at its own deterministic point ({@link Jitter#spread}), so that a bulk
   * import of thousands does not fall due at one instant; a single source is due at once.
   */
  public void insertAll(List<NewSource> sources, Instant now, Duration spread) {
    Duration span = sources.size() > 1 ? spread : Duration.ZERO;
    for (int from = 0; from < sources.size(); from += BATCH) {
      List<NewSource> chunk = sources.subList(from, Math.min(sources.size(), from + BATCH));
      named.batchUpdate(
          INSERT,
          chunk.stream()
              .map(s -> params(s, now, Jitter.spread(now, span, s.id())))
              .toArray(MapSqlParameterSource[]::new));
    }
  }

  private static MapSqlParameterSource params(NewSource s, Instant now) {
    return params(s, now, now);
  }

  private static MapSqlParameterSource params(NewSource s, Instant now, Instant due) {
    return new MapSqlParameterSource()
        .addValue("id", s.id())
        .addValue("tenant", s.tenantId())
        .addValues(fieldParams(s.fields()).getValues())
        .addValue("credentials", s.credentialsEncrypted(), Types.BINARY)
        .addValue("now", timestamp(now))
        .addValue("due", timestamp(due));
  }

  /** The user-set fields as the parameters both INSERT and UPDATE name. */
  private static MapSqlParameterSource fieldParams(SourceFields f) {
    return new MapSqlParameterSource()
        .addValue("name", f.name())
        .addValue("connector", f.connector().wireName())
        .addValue("url", f.url())
        .addValue("host", f.host())
        .addValue("category", f.category(), Types.VARCHAR)
        .addValue("priority", f.priority())
        .addValue("enabled", f.enabled())
        .addValue("config", f.configJson());
  }

  public Optional<SourceRow> find(UUID id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM scheduler.sources WHERE id = :id")
        .param("id", id)
        .query(SourceRepository::row)
        .optional();
  }

  /** One page of the sources matching {@code filter}, oldest first. */
  public SourcePage list(SourceFilter filter, int page, int size) {
    var where = new StringBuilder(" WHERE true");
    Map<String, Object> params = new HashMap<>();
    if (filter.tenantId() != null) {
      where.append(" AND tenant_id = :tenant");
      params.put("tenant", filter.tenantId());
    }
    if (filter.enabled() != null) {
      where.append(" AND enabled = :enabled");
      params.put("enabled", filter.enabled());
    }
    if (filter.connector() != null) {
      where.append(" AND connector = :connector");
      params.put("connector", filter.connector().wireName());
    }
    if (filter.category() != null) {
      where.append(" AND category = :category");
      params.put("category", filter.category());
    }
    if (filter.text() != null) {
      // strpos, not LIKE: the user's % and _ are plain characters here
      where.append(
          " AND (strpos(lower(name), lower(:q)) > 0 OR strpos(lower(url), lower(:q)) > 0)");
      params.put("q", filter.text());
    }
    long total =
        jdbc.sql("SELECT count(*) FROM scheduler.sources" + where)
            .params(params)
            .query(Long.class)
            .single();
    params.put("limit", size);
    params.put("offset", (long) page * size);
    List<SourceRow> rows =
        jdbc.sql(
                "SELECT "
                    + COLUMNS
                    + " FROM scheduler.sources"
                    + where
                    + " ORDER BY created_at, id LIMIT :limit OFFSET :offset")
            .params(params)
            .query(SourceRepository::row)
            .list();
    return new SourcePage(rows, total);
  }

  /** Full update of the editable fields; false if there is no such source. */
  public boolean update(UUID id, SourceEdit edit, Instant now) {
    boolean keep = edit.credentials() instanceof SourceEdit.CredentialsChange.Keep;
    byte[] sealed =
        edit.credentials() instanceof SourceEdit.CredentialsChange.Replace r ? r.encrypted() : null;
    // In SET, url and connector still read the old row: the cursor is dropped only when the
    // address changes (its ETag, Last-Modified and sync tokens belong to the old one).
    return named.update(
            """
                UPDATE scheduler.sources SET
                    cursor_json = CASE WHEN url = :url AND connector = :connector
                                       THEN cursor_json ELSE '{}'::jsonb END,
                    name = :name, connector = :connector, url = :url, host = :host,
                    category = :category, priority = :priority, enabled = :enabled,
                    config_json = CAST(:config AS jsonb),
                    disabled_reason = CASE WHEN :enabled THEN NULL ELSE disabled_reason END,
                    moved_to = CASE WHEN url = :url THEN moved_to END,
                    credentials_encrypted = CASE WHEN :keep THEN credentials_encrypted
                                                 ELSE :credentials END,
                    updated_at = :now
                WHERE id = :id
                """,
            fieldParams(edit.fields())
                .addValue("id", id)
                .addValue("keep", keep)
                .addValue("credentials", sealed, Types.BINARY)
                .addValue("now", timestamp(now)))
        == 1;
  }

  /** Enables or disables a source; false if there is no such source. */
  public boolean setEnabled(UUID id, boolean enabled, Instant now) {
    return jdbc.sql(
                "UPDATE scheduler.sources SET enabled = :enabled, updated_at = :now,"
                    + " disabled_reason = CASE WHEN :enabled THEN NULL ELSE disabled_reason END"
                    + " WHERE id = :id")
            .param("id", id)
            .param("enabled", enabled)
            .param("now", timestamp(now))
            .update()
        == 1;
  }

  /** Deletes a source; false if there is no such source. */
  public boolean delete(UUID id) {
    return jdbc.sql("DELETE FROM scheduler.sources WHERE id = :id").param("id", id).update() == 1;
  }

  /**
   * The manual override of ADR 0011 (docs/adr/0011-feed-frequency-from-the-last-ten-items.md):
   * flags the source and, unless a fetch is in flight, makes it due now ({@link
   * ScheduleRepository#requestFetch}, the owner of schedule writes). Empty if there is no such
   * enabled source.
   */
  public Optional<FetchRequest> requestFetch(UUID id, Instant now) {
    return schedule.requestFetch(id, now);
  }

  /** How many sources the tenant has. */
  public long countByTenant(String tenantId) {
    return jdbc.sql("SELECT count(*) FROM scheduler.sources WHERE tenant_id = :tenant")
        .param("tenant", tenantId)
        .query(Long.class)
        .single();
  }

  /**
   * The {@link #key}s of all the tenant's sources (bounded by the tenant's source limit), for
   * skipping what an import already has.
   */
  public Set<String> existingKeys(String tenantId) {
    return new HashSet<>(
        jdbc.sql("SELECT connector || ' ' || url FROM scheduler.sources WHERE tenant_id = :tenant")
            .param("tenant", tenantId)
            .query(String.class)
            .list());
  }

  /** The key {@link #existingKeys} uses for one source. */
  public static String key(Connector connector, String url) {
    return connector.wireName() + " " + url;
  }

  private static SourceRow row(ResultSet rs, int rowNum) throws SQLException {
    var schedule =
        new SourceRow.Schedule(
            instant(rs, "next_due_at"),
            instant(rs, "lease_until"),
            rs.getLong("epoch"),
            rs.getBoolean("manual_requested"),
            rs.getString("last_status"),
            rs.getString("last_error"),
            instant(rs, "last_outcome_at"),
            instant(rs, "retry_after"),
            rs.getInt("consecutive_misses"),
            rs.getInt("consecutive_empty"));
    var stats =
        new SourceRow.Stats(
            rs.getInt("window_fetches"),
            rs.getObject("avg_signal_yield", Double.class),
            rs.getString("dominant_signal_type"),
            rs.getString("type_counts_text"),
            rs.getObject("median_days_to_event", Double.class),
            rs.getObject("publish_interval_avg_ms", Long.class),
            rs.getObject("change_rate", Double.class),
            instant(rs, "stats_updated_at"));
    return new SourceRow(
        rs.getObject("id", UUID.class),
        rs.getString("tenant_id"),
        new SourceFields(
            rs.getString("name"),
            Connector.parse(rs.getString("connector")).orElseThrow(),
            rs.getString("url"),
            rs.getString("host"),
            rs.getString("category"),
            rs.getInt("priority"),
            rs.getBoolean("enabled"),
            rs.getString("config_text")),
        rs.getString("cursor_text"),
        rs.getBoolean("has_credentials"),
        schedule,
        stats,
        new SourceRow.Web(
            rs.getString("hints_text"),
            instant(rs, "hint_not_before"),
            rs.getString("moved_to"),
            rs.getString("self_url"),
            rs.getString("hub_url"),
            rs.getString("disabled_reason"),
            rs.getString("previous_urls_text")),
        instant(rs, "created_at"),
        instant(rs, "updated_at"));
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  static OffsetDateTime timestamp(Instant instant) {
    return instant.atOffset(ZoneOffset.UTC);
  }
}
