package io.freshet.push.store;

import io.freshet.push.websub.Subscription;
import io.freshet.push.websub.SubscriptionState;
import io.freshet.schemas.crypto.CredentialCipher;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * {@code push.subscriptions}: looked up by the SHA-256 of the callback token; the token and the
 * secret are stored encrypted with the receiver's own key and decrypted only here.
 */
@Repository
public class SubscriptionStore {

  private static final String COLUMNS =
      """
      s.id, s.source_id, s.tenant_id, s.topic_url, s.hub_url, s.callback_token_encrypted,
      s.secret_encrypted, s.state, s.pending_since, s.lease_started_at, s.lease_expires_at,
      s.last_notification_at, s.reason
      """;

  private final JdbcClient jdbc;
  private final CredentialCipher cipher;

  public SubscriptionStore(JdbcClient jdbc, CredentialCipher cipher) {
    this.jdbc = jdbc;
    this.cipher = cipher;
  }

  /** The subscription whose callback token is {@code token}, if any. */
  public Optional<Subscription> byToken(String token) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM subscriptions s WHERE s.callback_token_hash = :h")
        .param("h", hash(token))
        .query(this::row)
        .optional();
  }

  /** The subscription {@code id}, if any. */
  public Optional<Subscription> byId(UUID id) {
    return jdbc.sql("SELECT " + COLUMNS + " FROM subscriptions s WHERE s.id = :id")
        .param("id", id)
        .query(this::row)
        .optional();
  }

  /** Stores a new subscription; false when the source already has one for that hub and topic. */
  public boolean insert(Subscription s, Instant now) {
    return jdbc.sql(
                """
                INSERT INTO subscriptions (id, source_id, tenant_id, topic_url, hub_url,
                    callback_token_hash, callback_token_encrypted, secret_encrypted, state,
                    pending_since, created_at, updated_at)
                VALUES (:id, :source, :tenant, :topic, :hub, :hash, :token, :secret, :state,
                    :pending, :now, :now)
                ON CONFLICT (source_id, hub_url, topic_url) DO NOTHING
                """)
            .param("id", s.id())
            .param("source", s.sourceId())
            .param("tenant", s.tenantId())
            .param("topic", s.topic().toString())
            .param("hub", s.hub().toString())
            .param("hash", hash(s.token()))
            .param("token", cipher.encrypt(s.token()))
            .param("secret", cipher.encrypt(s.secret()))
            .param("state", s.state().name())
            .param("pending", ts(s.pendingSince()))
            .param("now", ts(now))
            .update()
        > 0;
  }

  /** Stores a transition (state, pending intent, lease, reason). */
  public void save(Subscription s, Instant now) {
    jdbc.sql(
            """
            UPDATE subscriptions SET state = :state, pending_since = :pending,
                lease_started_at = :leaseStart, lease_expires_at = :leaseEnd, reason = :reason,
                updated_at = :now
            WHERE id = :id
            """)
        .param("state", s.state().name())
        .param("pending", ts(s.pendingSince()))
        .param("leaseStart", ts(s.leaseStartedAt()))
        .param("leaseEnd", ts(s.leaseExpiresAt()))
        .param("reason", s.reason())
        .param("now", ts(now))
        .param("id", s.id())
        .update();
  }

  /**
   * Stores {@code next} only if the row still stands where {@code current} says (same state and
   * pending intent): a round that read the row before a hub's verification changed it must not
   * overwrite the verification.
   *
   * @return whether it was stored
   */
  public boolean transition(Subscription current, Subscription next, Instant now) {
    return jdbc.sql(
                """
                UPDATE subscriptions SET state = :state, pending_since = :pending,
                    lease_started_at = :leaseStart, lease_expires_at = :leaseEnd,
                    reason = :reason, updated_at = :now
                WHERE id = :id AND state = :oldState
                  AND pending_since IS NOT DISTINCT FROM :oldPending
                """)
            .param("state", next.state().name())
            .param("pending", ts(next.pendingSince()))
            .param("leaseStart", ts(next.leaseStartedAt()))
            .param("leaseEnd", ts(next.leaseExpiresAt()))
            .param("reason", next.reason())
            .param("now", ts(now))
            .param("id", next.id())
            .param("oldState", current.state().name())
            .param("oldPending", ts(current.pendingSince()))
            .update()
        > 0;
  }

  /** Records an accepted notification. */
  public void notified(UUID id, Instant at) {
    jdbc.sql("UPDATE subscriptions SET last_notification_at = :at WHERE id = :id")
        .param("at", ts(at))
        .param("id", id)
        .update();
  }

  /**
   * Creates the subscriptions that push-capable sources lack: a hub and a topic announced since
   * {@code since}, no credentials.
   *
   * @param factory makes the new subscription of (source, tenant, topic, hub)
   * @return how many were created
   */
  public int createMissing(Instant since, Instant now, NewSubscription factory, int limit) {
    var wanting =
        jdbc.sql(
                """
                SELECT src.source_id, src.tenant_id, COALESCE(src.self_url, src.url) AS topic,
                       src.hub_url
                FROM sources src
                WHERE src.hub_url IS NOT NULL AND COALESCE(src.self_url, src.url) IS NOT NULL
                  AND NOT src.private AND src.announced_at >= :since
                  AND NOT EXISTS (SELECT 1 FROM subscriptions s
                                  WHERE s.source_id = src.source_id AND s.hub_url = src.hub_url
                                    AND s.topic_url = COALESCE(src.self_url, src.url))
                ORDER BY src.announced_at
                LIMIT :limit
                """)
            .param("since", ts(since))
            .param("limit", limit)
            .query(
                (rs, n) ->
                    factory.create(
                        rs.getString(1),
                        rs.getString(2),
                        URI.create(rs.getString(3)),
                        URI.create(rs.getString(4))))
            .list();
    int created = 0;
    for (Subscription s : wanting) {
      if (insert(s, now)) {
        created++;
      }
    }
    return created;
  }

  /** Makes a subscription for a source that lacks one. */
  @FunctionalInterface
  public interface NewSubscription {
    Subscription create(String sourceId, String tenantId, URI topic, URI hub);
  }

  /** A subscription the round looks at, and whether its source still wants it. */
  public record Open(Subscription subscription, boolean wanted) {}

  /**
   * Every subscription a round may act on: all but denied ones, and unsubscribed ones only when
   * their source wants push again.
   */
  public List<Open> open(Instant since, int limit) {
    return jdbc
        .sql(
            "SELECT "
                + COLUMNS
                + """
                , (src.hub_url IS NOT DISTINCT FROM s.hub_url
                   AND COALESCE(src.self_url, src.url) IS NOT DISTINCT FROM s.topic_url
                   AND NOT COALESCE(src.private, false)
                   AND src.announced_at >= :since) AS wanted
                FROM subscriptions s LEFT JOIN sources src ON src.source_id = s.source_id
                WHERE s.state <> 'DENIED'
                ORDER BY s.updated_at
                LIMIT :limit
                """)
        .param("since", ts(since))
        .param("limit", limit)
        .query((rs, n) -> new Open(row(rs, n), rs.getBoolean("wanted")))
        .list()
        .stream()
        .filter(o -> o.wanted() || o.subscription().state() != SubscriptionState.UNSUBSCRIBED)
        .toList();
  }

  /** Subscriptions by state (every state, zero included). */
  public Map<SubscriptionState, Long> countByState() {
    Map<SubscriptionState, Long> counts = new EnumMap<>(SubscriptionState.class);
    for (SubscriptionState s : SubscriptionState.values()) {
      counts.put(s, 0L);
    }
    jdbc.sql("SELECT state, count(*) FROM subscriptions GROUP BY state")
        .query(
            rs -> {
              counts.put(SubscriptionState.valueOf(rs.getString(1)), rs.getLong(2));
            });
    return counts;
  }

  private Subscription row(ResultSet rs, int n) throws SQLException {
    return new Subscription(
        rs.getObject("id", UUID.class),
        rs.getString("source_id"),
        rs.getString("tenant_id"),
        URI.create(rs.getString("topic_url")),
        URI.create(rs.getString("hub_url")),
        cipher.decrypt(rs.getBytes("callback_token_encrypted")),
        cipher.decrypt(rs.getBytes("secret_encrypted")),
        SubscriptionState.valueOf(rs.getString("state")),
        instant(rs, "pending_since"),
        instant(rs, "lease_started_at"),
        instant(rs, "lease_expires_at"),
        instant(rs, "last_notification_at"),
        rs.getString("reason"));
  }

  /** SHA-256 of a token: what the table is searched by, so the token itself need not be. */
  static byte[] hash(String token) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    Timestamp t = rs.getTimestamp(column);
    return t == null ? null : t.toInstant();
  }

  private static Timestamp ts(Instant i) {
    return i == null ? null : Timestamp.from(i);
  }
}
