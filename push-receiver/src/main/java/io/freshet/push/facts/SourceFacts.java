package io.freshet.push.facts;

import java.net.URI;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * {@code push.sources}: what the fetches said of each source — the URL the scheduler asks for
 * (FetchRequested), and the hub and self URL the document announced (FetchCompleted). Every URL is
 * checked before it is stored: absolute http(s), at most {@value #MAX_URL} characters; anything
 * else counts as not announced.
 */
@Repository
public class SourceFacts {

  static final int MAX_URL = 2048;

  private static final String REQUESTED =
      """
      INSERT INTO sources (source_id, tenant_id, url, private, requested_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (source_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id,
          url = EXCLUDED.url, private = EXCLUDED.private,
          requested_at = GREATEST(sources.requested_at, EXCLUDED.requested_at),
          updated_at = EXCLUDED.updated_at
      """;

  private final JdbcClient jdbc;
  private final JdbcTemplate template;

  public SourceFacts(JdbcClient jdbc, JdbcTemplate template) {
    this.jdbc = jdbc;
    this.template = template;
  }

  /** A fetch of a source was requested at {@code at} for {@code url}. */
  public record Requested(
      String sourceId, String tenantId, String url, boolean credentials, Instant at) {}

  /** A fetch of the source was requested at {@code at} for {@code url}. */
  public void requested(
      String sourceId, String tenantId, String url, boolean credentials, Instant at) {
    requestedAll(List.of(new Requested(sourceId, tenantId, url, credentials, at)));
  }

  /**
   * Requests in their order, as {@link #requested} one after another would store them, in one round
   * trip of the same statement (a JDBC batch); the caller's transaction holds them together.
   */
  public void requestedAll(List<Requested> requests) {
    if (requests.isEmpty()) {
      return;
    }
    template.batchUpdate(
        REQUESTED,
        requests,
        requests.size(),
        (ps, r) -> {
          Timestamp at = Timestamp.from(r.at());
          ps.setString(1, r.sourceId());
          ps.setString(2, r.tenantId() == null ? "" : r.tenantId());
          ps.setString(3, httpUrl(r.url()));
          ps.setBoolean(4, r.credentials());
          ps.setTimestamp(5, at);
          ps.setTimestamp(6, at);
        });
  }

  /**
   * A successful fetch finished at {@code at} and read the document's hub and self URLs (each null
   * when not announced): a null hub means the source no longer announces one.
   */
  public void announced(String sourceId, String tenantId, String hub, String self, Instant at) {
    String hubUrl = httpUrl(hub);
    jdbc.sql(
            """
            INSERT INTO sources (source_id, tenant_id, hub_url, self_url, announced_at, updated_at)
            VALUES (:id, :tenant, :hub, :self, :announced, :at)
            ON CONFLICT (source_id) DO UPDATE SET hub_url = EXCLUDED.hub_url,
                self_url = EXCLUDED.self_url,
                announced_at = COALESCE(EXCLUDED.announced_at, sources.announced_at),
                updated_at = EXCLUDED.updated_at
            """)
        .param("id", sourceId)
        .param("tenant", tenantId == null ? "" : tenantId)
        .param("hub", hubUrl)
        .param("self", hubUrl == null ? null : httpUrl(self))
        .param("announced", hubUrl == null ? null : Timestamp.from(at))
        .param("at", Timestamp.from(at))
        .update();
  }

  /**
   * A fetch finished at {@code at} with 304 Not Modified: the document is the one last read, so a
   * hub it announced is announced still (nothing changes for a source without a hub).
   */
  public void stillAnnounced(String sourceId, Instant at) {
    jdbc.sql(
            """
            UPDATE sources SET announced_at = GREATEST(announced_at, :at), updated_at = :at
            WHERE source_id = :id AND hub_url IS NOT NULL
            """)
        .param("id", sourceId)
        .param("at", Timestamp.from(at))
        .update();
  }

  /** {@code s} when it is an absolute http(s) URL with a host and no user info, else null. */
  static String httpUrl(String s) {
    if (s == null || s.isEmpty() || s.length() > MAX_URL) {
      return null;
    }
    try {
      URI u = new URI(s);
      String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
      if (!(scheme.equals("http") || scheme.equals("https"))
          || u.getHost() == null
          || u.getRawUserInfo() != null) {
        return null;
      }
      return u.toString();
    } catch (java.net.URISyntaxException e) {
      return null;
    }
  }
}
