package io.freshet.push.websub;

/**
 * Where one WebSub subscription stands. Stored by name in {@code push.subscriptions.state}.
 *
 * <ul>
 *   <li>{@code REQUESTED}: a subscribe request was sent (or is to be sent); the hub has not yet
 *       verified our intent. Notifications are not accepted.
 *   <li>{@code ACTIVE}: the hub verified the intent (the "verified" state); the lease runs until
 *       {@code leaseExpiresAt}.
 *   <li>{@code EXPIRING}: a renewal was sent before the lease ends; still live until the lease ends
 *       or the renewal is verified (back to {@code ACTIVE} with a new lease).
 *   <li>{@code EXPIRED}: the lease ended without a verified renewal; subscribed again at the next
 *       round.
 *   <li>{@code DENIED}: the hub refused the subscription ({@code hub.mode=denied}); not retried
 *       until the source announces another hub or topic.
 *   <li>{@code UNSUBSCRIBING}: an unsubscribe request was sent; the hub has not yet verified it.
 *   <li>{@code UNSUBSCRIBED}: the hub verified the unsubscription; the callback answers 410.
 * </ul>
 */
public enum SubscriptionState {
  REQUESTED,
  ACTIVE,
  EXPIRING,
  EXPIRED,
  DENIED,
  UNSUBSCRIBING,
  UNSUBSCRIBED;

  /** Whether notifications for a subscription in this state may be accepted (lease permitting). */
  public boolean receives() {
    return this == ACTIVE || this == EXPIRING;
  }

  /** The intent a hub may verify in this state, or null when none is pending. */
  public Intent pendingIntent() {
    return switch (this) {
      case REQUESTED, EXPIRING -> Intent.SUBSCRIBE;
      case UNSUBSCRIBING -> Intent.UNSUBSCRIBE;
      default -> null;
    };
  }
}
