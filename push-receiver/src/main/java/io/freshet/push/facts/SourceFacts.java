package io.freshet.push.facts;

import java.net.URI;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/**
 * {@code push.sources}: what the fetches said of each source — the URL the scheduler asks for
 * (FetchRequested), and the hub and self URL the document announced (FetchCompleted). Every URL is
 * checked before it is stored: absolute http(s), at most {@value #MAX_URL} characters; anything
 * else counts as not announced.
 *
 * <p>A fact rewrites a row only when {@link FactsFreshness} says so: when it changes what a round
 * reads, or a timestamp lags by more than the granularity. Each statement says it twice: a {@code
 * NOT EXISTS} on the row as the statement's snapshot sees it, so that a fact that changes nothing
 * neither writes nor locks the row (a poll of such facts is a read-only transaction: no transaction
 * id, no WAL, no flush at commit), and the same condition as the {@code ON CONFLICT … DO UPDATE …
 * WHERE}, on the row as it is when locked. The decision rests on the stored row alone: no cache, so
 * restarts and replays decide as before.
 */
@Repository
public class SourceFacts {

  static final int MAX_URL = 2048;

  private final JdbcTemplate template;
  private final FactsFreshness freshness;
  private final String requested;
  private final String completed;

  public SourceFacts(JdbcTemplate template, FactsFreshness freshness) {
    this.template = template;
    this.freshness = freshness;
    long g = freshness.granularityMs();
    this.requested = requested(g);
    this.completed = completed(g);
  }

  /** How this instance decides what to write. */
  public FactsFreshness freshness() {
    return freshness;
  }

  /**
   * A poll's requests, one row per source in source id order (arrays: ids, tenants, URLs,
   * credentials flags, times in microseconds since the epoch): a row is written when it is new, its
   * tenant, URL or credentials flag differ, or its {@code requested_at} lags the request by more
   * than {@code g} milliseconds. {@code ORDER BY ord} makes the upsert lock rows in that order, as
   * the outcomes' statement does.
   */
  static String requested(long g) {
    return """
        INSERT INTO sources AS s (source_id, tenant_id, url, private, requested_at, updated_at)
        SELECT r.id, r.tenant, r.url, r.private, r.at, r.at
          FROM (SELECT u.id, u.tenant, u.url, u.private, u.ord,
                       timestamptz 'epoch' + u.at_us * interval '1 microsecond' AS at
                  FROM unnest(?::text[], ?::text[], ?::text[], ?::boolean[], ?::int8[])
                    WITH ORDINALITY AS u(id, tenant, url, private, at_us, ord)) r
         WHERE NOT EXISTS (
           SELECT 1 FROM sources o
            WHERE o.source_id = r.id AND o.tenant_id = r.tenant
              AND o.url IS NOT DISTINCT FROM r.url AND o.private = r.private
              AND NOT %s)
         ORDER BY r.ord
        ON CONFLICT (source_id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id,
            url = EXCLUDED.url, private = EXCLUDED.private,
            requested_at = GREATEST(s.requested_at, EXCLUDED.requested_at),
            updated_at = EXCLUDED.updated_at
         WHERE s.tenant_id IS DISTINCT FROM EXCLUDED.tenant_id
            OR s.url IS DISTINCT FROM EXCLUDED.url
            OR s.private IS DISTINCT FROM EXCLUDED.private
            OR %s
        """
        .formatted(
            lags("o.requested_at", "r.at", g), lags("s.requested_at", "EXCLUDED.requested_at", g));
  }

  /**
   * Outcomes of distinct sources, one row each in source id order (arrays: ids, tenants, hubs, self
   * URLs, times in microseconds since the epoch, 304 flags), both kinds in one upsert: a read
   * document writes its hub and self URL when they differ, or its hub's {@code announced_at} when
   * that lags by more than {@code g}; a 304 ({@code not_modified}) moves {@code announced_at} of a
   * row with a hub when it lags by more than {@code g}, and changes nothing else.
   *
   * <p>One upsert rather than an {@code UPDATE} for the 304s beside an {@code INSERT} for the
   * reads: two data-modifying parts of one statement run in an order PostgreSQL does not promise,
   * so their row locks would not be taken in source id order; the upsert takes them in {@code ORDER
   * BY ord}, as the requests' statement does, so the two listeners never deadlock. A 304 reaches
   * the upsert only when the snapshot holds its row with a hub and a lagging time (rows are never
   * deleted, so it always conflicts and never inserts); it proposes an {@code announced_at} without
   * a hub, which no read proposes (a read without a hub proposes none): that is how {@code DO
   * UPDATE} tells the kinds apart ({@code %1$s} below), keeping the stored hub and self URL for a
   * 304.
   */
  static String completed(long g) {
    String still = "(EXCLUDED.hub_url IS NULL AND EXCLUDED.announced_at IS NOT NULL)";
    return """
        INSERT INTO sources AS s (source_id, tenant_id, hub_url, self_url, announced_at,
                                  updated_at)
        SELECT r.id, r.tenant, r.hub, r.self,
               CASE WHEN r.hub IS NOT NULL OR r.not_modified THEN r.at END, r.at
          FROM (SELECT u.id, u.tenant, CASE WHEN NOT u.not_modified THEN u.hub END AS hub,
                       CASE WHEN NOT u.not_modified THEN u.self END AS self, u.not_modified,
                       u.ord, timestamptz 'epoch' + u.at_us * interval '1 microsecond' AS at
                  FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::int8[], ?::boolean[])
                    WITH ORDINALITY AS u(id, tenant, hub, self, at_us, not_modified, ord)) r
          LEFT JOIN sources o ON o.source_id = r.id
         WHERE CASE WHEN r.not_modified
                 THEN o.hub_url IS NOT NULL AND %2$s
                 ELSE o.source_id IS NULL
                   OR o.hub_url IS DISTINCT FROM r.hub OR o.self_url IS DISTINCT FROM r.self
                   OR (r.hub IS NOT NULL AND %2$s) END
         ORDER BY r.ord
        ON CONFLICT (source_id) DO UPDATE SET
            hub_url = CASE WHEN %1$s THEN s.hub_url ELSE EXCLUDED.hub_url END,
            self_url = CASE WHEN %1$s THEN s.self_url ELSE EXCLUDED.self_url END,
            announced_at = CASE WHEN %1$s THEN GREATEST(s.announced_at, EXCLUDED.announced_at)
                                ELSE COALESCE(EXCLUDED.announced_at, s.announced_at) END,
            updated_at = EXCLUDED.updated_at
         WHERE CASE WHEN %1$s
                 THEN s.hub_url IS NOT NULL AND %3$s
                 ELSE s.hub_url IS DISTINCT FROM EXCLUDED.hub_url
                   OR s.self_url IS DISTINCT FROM EXCLUDED.self_url
                   OR (EXCLUDED.hub_url IS NOT NULL AND %3$s) END
        """
        .formatted(
            still,
            lags("o.announced_at", "r.at", g),
            lags("s.announced_at", "EXCLUDED.announced_at", g));
  }

  /**
   * SQL for {@link FactsFreshness#lags}: {@code stored} is null or more than g before {@code at}.
   */
  private static String lags(String stored, String at, long g) {
    return "(%s IS NULL OR %s < %s - interval '%d milliseconds')".formatted(stored, stored, at, g);
  }

  /** A fetch of a source was requested at {@code at} for {@code url}. */
  public record Requested(
      String sourceId, String tenantId, String url, boolean credentials, Instant at) {}

  /**
   * A fetch of a source finished at {@code at}: with 304 Not Modified ({@code notModified}: the
   * document is the one last read, so a hub it announced is announced still), or having read the
   * document, which announced {@code hub} and {@code self} (each null when not announced: a null
   * hub means the source no longer announces one).
   */
  public record Completed(
      String sourceId, String tenantId, String hub, String self, Instant at, boolean notModified) {

    /** A read document's announcement. */
    public static Completed read(
        String sourceId, String tenantId, String hub, String self, Instant at) {
      return new Completed(sourceId, tenantId, hub, self, at, false);
    }

    /** A 304's. */
    public static Completed notModified(String sourceId, Instant at) {
      return new Completed(sourceId, null, null, null, at, true);
    }
  }

  /** A fetch of the source was requested at {@code at} for {@code url}. */
  public void requested(
      String sourceId, String tenantId, String url, boolean credentials, Instant at) {
    requestedAll(List.of(new Requested(sourceId, tenantId, url, credentials, at)));
  }

  /**
   * Requests in their order, as {@link #requested} one after another would store them, in one
   * statement: a source's requests are folded into one row first (an upsert changes a row once per
   * statement) — its last request's tenant, URL and credentials flag, its latest time. That is what
   * they would leave one after another, except that a time within {@code g} of the one stored
   * before may now be stored too (the rule's bound holds either way; with {@code g = 0} it is
   * exactly the same). The caller's transaction holds it with the rest.
   */
  public void requestedAll(List<Requested> requests) {
    if (requests.isEmpty()) {
      return;
    }
    TreeMap<String, Requested> bySource = new TreeMap<>();
    for (Requested r : requests) {
      bySource.merge(
          r.sourceId(),
          r,
          (earlier, later) ->
              later.at().isBefore(earlier.at())
                  ? new Requested(
                      later.sourceId(),
                      later.tenantId(),
                      later.url(),
                      later.credentials(),
                      earlier.at())
                  : later);
    }
    int n = bySource.size();
    String[] ids = new String[n];
    String[] tenants = new String[n];
    String[] urls = new String[n];
    Boolean[] credentials = new Boolean[n];
    Long[] micros = new Long[n];
    int i = 0;
    for (Requested r : bySource.values()) {
      ids[i] = r.sourceId();
      tenants[i] = r.tenantId() == null ? "" : r.tenantId();
      urls[i] = httpUrl(r.url());
      credentials[i] = r.credentials();
      micros[i] = ChronoUnit.MICROS.between(Instant.EPOCH, r.at());
      i++;
    }
    updateWithColumns(requested, ids, tenants, urls, credentials, micros);
  }

  /**
   * A successful fetch finished at {@code at} and read the document's hub and self URLs (each null
   * when not announced): a null hub means the source no longer announces one.
   */
  public void announced(String sourceId, String tenantId, String hub, String self, Instant at) {
    completedAll(List.of(Completed.read(sourceId, tenantId, hub, self, at)));
  }

  /**
   * A fetch finished at {@code at} with 304 Not Modified: the document is the one last read, so a
   * hub it announced is announced still (nothing changes for a source without a hub).
   */
  public void stillAnnounced(String sourceId, Instant at) {
    completedAll(List.of(Completed.notModified(sourceId, at)));
  }

  /**
   * Outcomes in their order, as {@link #announced} and {@link #stillAnnounced} one after another
   * would store them, in as few statements as ordering allows; the caller's transaction holds them
   * together. They are sorted by source id (stably: a source's outcomes keep their order, and
   * sources are independent), then cut into runs without a repeated source: one statement per run
   * (an upsert changes a row once per statement), one in all unless a source repeats. Each run
   * locks its rows in source id order and starts at or after the previous run's last source, so the
   * poll's locks are taken in source id order, as the requests' are (cutting into rounds of first,
   * second … outcomes instead would lock a later source before an earlier one's repeat).
   */
  public void completedAll(List<Completed> outcomes) {
    for (List<Completed> run : runs(outcomes)) {
      completedRun(run);
    }
  }

  /**
   * {@link #completedAll}'s statements: the outcomes stably sorted by source id, cut before each
   * repeat of the source just before (a source's repeats are then next to each other).
   */
  static List<List<Completed>> runs(List<Completed> outcomes) {
    List<Completed> sorted = new ArrayList<>(outcomes);
    sorted.sort(Comparator.comparing(Completed::sourceId)); // List.sort is stable
    List<List<Completed>> runs = new ArrayList<>();
    int from = 0;
    for (int i = 1; i <= sorted.size(); i++) {
      if (i == sorted.size() || sorted.get(i).sourceId().equals(sorted.get(i - 1).sourceId())) {
        runs.add(sorted.subList(from, i));
        from = i;
      }
    }
    return runs;
  }

  /** One statement of {@link #completed}: outcomes of distinct sources in source id order. */
  private void completedRun(List<Completed> run) {
    int n = run.size();
    String[] ids = new String[n];
    String[] tenants = new String[n];
    String[] hubs = new String[n];
    String[] selves = new String[n];
    Long[] micros = new Long[n];
    Boolean[] notModified = new Boolean[n];
    for (int i = 0; i < n; i++) {
      Completed c = run.get(i);
      String hub = c.notModified() ? null : httpUrl(c.hub());
      ids[i] = c.sourceId();
      tenants[i] = c.tenantId() == null ? "" : c.tenantId();
      hubs[i] = hub;
      selves[i] = hub == null ? null : httpUrl(c.self());
      micros[i] = ChronoUnit.MICROS.between(Instant.EPOCH, c.at());
      notModified[i] = c.notModified();
    }
    updateWithColumns(completed, ids, tenants, hubs, selves, micros, notModified);
  }

  /**
   * Runs {@code sql} with one Java array per column as its parameters, in order: the driver sends
   * each as a typed array for the statement's {@code unnest}.
   */
  private void updateWithColumns(String sql, Object... columns) {
    template.update(
        sql,
        ps -> {
          for (int c = 0; c < columns.length; c++) {
            ps.setObject(c + 1, columns[c]);
          }
        });
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
