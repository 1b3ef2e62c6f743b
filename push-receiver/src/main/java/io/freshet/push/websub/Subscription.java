package io.freshet.push.websub;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;

/**
 * One subscription of one source to one hub, immutable: each transition returns the next value.
 *
 * @param id the subscription's id (in {@code PushReceived.subscription_id})
 * @param sourceId the scheduler's source id
 * @param tenantId the source's tenant
 * @param topic the topic URL subscribed to (the feed's self URL, else its URL)
 * @param hub the hub's URL
 * @param token the unguessable last path segment of the callback URL; never logged in full
 * @param secret the {@code hub.secret} notifications are signed with; never logged
 * @param state where the subscription stands
 * @param pendingSince when the pending intent was sent (null when none is pending)
 * @param leaseStartedAt when the current lease was verified (null before the first)
 * @param leaseExpiresAt when the current lease ends (null before the first)
 * @param lastNotificationAt when the last accepted notification arrived (null before the first)
 * @param reason the hub's {@code hub.reason} of a denial, else null
 */
public record Subscription(
    UUID id,
    String sourceId,
    String tenantId,
    URI topic,
    URI hub,
    String token,
    String secret,
    SubscriptionState state,
    Instant pendingSince,
    Instant leaseStartedAt,
    Instant leaseExpiresAt,
    Instant lastNotificationAt,
    String reason) {

  public Subscription {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(sourceId, "sourceId");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(hub, "hub");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(secret, "secret");
    Objects.requireNonNull(state, "state");
    tenantId = tenantId == null ? "" : tenantId;
  }

  /** A new subscription whose subscribe request goes out now. */
  public static Subscription request(
      UUID id, String sourceId, String tenantId, URI topic, URI hub, Tokens tokens, Instant now) {
    return new Subscription(
        id,
        sourceId,
        tenantId,
        topic,
        hub,
        tokens.callbackToken(),
        tokens.secret(),
        SubscriptionState.REQUESTED,
        now,
        null,
        null,
        null,
        null);
  }

  /**
   * A new subscription whose subscribe request is still to be sent: {@code REQUESTED} with nothing
   * pending, so the next round sends it at once.
   */
  public static Subscription create(
      UUID id, String sourceId, String tenantId, URI topic, URI hub, Tokens tokens) {
    return new Subscription(
        id,
        sourceId,
        tenantId,
        topic,
        hub,
        tokens.callbackToken(),
        tokens.secret(),
        SubscriptionState.REQUESTED,
        null,
        null,
        null,
        null,
        null);
  }

  /** Whether a notification may be accepted now: verified and inside its lease. */
  public boolean live(Instant now) {
    return state.receives() && leaseExpiresAt != null && now.isBefore(leaseExpiresAt);
  }

  /** The hub verified our subscribe intent: a lease of {@code lease} starts now. */
  public Subscription verified(Duration lease, Instant now) {
    return with(SubscriptionState.ACTIVE, null, now, now.plus(lease), null);
  }

  /** The hub verified our unsubscribe intent. */
  public Subscription unsubscribed() {
    return with(SubscriptionState.UNSUBSCRIBED, null, leaseStartedAt, leaseExpiresAt, null);
  }

  /** The hub denied the subscription, giving {@code reason} (may be null). */
  public Subscription denied(String reason) {
    return with(SubscriptionState.DENIED, null, leaseStartedAt, leaseExpiresAt, reason);
  }

  /** A renewal (a fresh subscribe request) was sent now, before the lease ends. */
  public Subscription renewing(Instant now) {
    return with(SubscriptionState.EXPIRING, now, leaseStartedAt, leaseExpiresAt, null);
  }

  /** A subscribe request was sent (again) now: first, after a lapse or an unanswered request. */
  public Subscription requested(Instant now) {
    return with(SubscriptionState.REQUESTED, now, leaseStartedAt, leaseExpiresAt, null);
  }

  /** The lease ended without a verified renewal. */
  public Subscription expired() {
    return with(SubscriptionState.EXPIRED, null, leaseStartedAt, leaseExpiresAt, null);
  }

  /** An unsubscribe request was sent now. */
  public Subscription unsubscribing(Instant now) {
    return with(SubscriptionState.UNSUBSCRIBING, now, leaseStartedAt, leaseExpiresAt, null);
  }

  /** A notification was accepted now. */
  public Subscription notified(Instant now) {
    return new Subscription(
        id,
        sourceId,
        tenantId,
        topic,
        hub,
        token,
        secret,
        state,
        pendingSince,
        leaseStartedAt,
        leaseExpiresAt,
        now,
        reason);
  }

  private Subscription with(
      SubscriptionState next, Instant pending, Instant leaseStart, Instant leaseEnd, String why) {
    return new Subscription(
        id,
        sourceId,
        tenantId,
        topic,
        hub,
        token,
        secret,
        next,
        pending,
        leaseStart,
        leaseEnd,
        lastNotificationAt,
        why);
  }

  /** Never the token in full nor the secret. */
  @Override
  public String toString() {
    return "Subscription[id="
        + id
        + ", source="
        + sourceId
        + ", hub="
        + hub
        + ", topic="
        + topic
        + ", token="
        + Tokens.redact(token)
        + ", state="
        + state
        + ", lease_until="
        + leaseExpiresAt
        + "]";
  }
}
