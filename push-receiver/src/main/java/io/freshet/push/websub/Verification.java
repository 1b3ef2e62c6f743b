package io.freshet.push.websub;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;

/**
 * The subscriber's side of a hub's {@code GET} to a callback: verification of intent ({@code
 * hub.mode=subscribe|unsubscribe}, echo {@code hub.challenge}) and denial ({@code
 * hub.mode=denied}).
 *
 * <p>The challenge is echoed only when the callback's subscription has that intent pending, for
 * that topic, sent no longer ago than {@code pendingFor}, with a valid lease for a subscription;
 * every other request is answered 404 and changes nothing. A denial for the callback's topic is
 * acknowledged (200) and recorded.
 */
public final class Verification {

  /** The longest challenge echoed; a hub's challenge is short random text. */
  public static final int MAX_CHALLENGE = 1024;

  /** Leases beyond this (a year) are refused as implausible. */
  public static final long MAX_LEASE_SECONDS = 366L * 24 * 3600;

  private final Clock clock;
  private final Duration pendingFor;

  /**
   * @param pendingFor how long after a request its verification is still accepted
   */
  public Verification(Clock clock, Duration pendingFor) {
    this.clock = clock;
    this.pendingFor = pendingFor;
  }

  /** The answer to the hub, and the subscription as it stands after it. */
  public sealed interface Answer {
    /** 200 with {@code challenge} as the body ({@code text/plain}). */
    record Echo(String challenge, Subscription next) implements Answer {}

    /** 200, empty: a denial recorded. */
    record Denied(Subscription next) implements Answer {}

    /** 404: nothing pending matches; {@code why} is for the log and metrics, never the hub. */
    record NotFound(String why) implements Answer {}
  }

  /**
   * Answers a verification request for {@code subscription} (null when the callback's token is
   * unknown) with the request's query parameters.
   */
  public Answer answer(Subscription subscription, Map<String, String> query) {
    if (subscription == null) {
      return new Answer.NotFound("unknown_callback");
    }
    String mode = query.get("hub.mode");
    String topic = query.get("hub.topic");
    if (topic == null || !topic.equals(subscription.topic().toString())) {
      return new Answer.NotFound("topic_mismatch");
    }
    if ("denied".equals(mode)) {
      if (subscription.state() == SubscriptionState.UNSUBSCRIBED
          || subscription.state() == SubscriptionState.DENIED) {
        return new Answer.NotFound("not_subscribed");
      }
      return new Answer.Denied(subscription.denied(reason(query.get("hub.reason"))));
    }
    Intent intent = Intent.ofMode(mode);
    if (intent == null) {
      return new Answer.NotFound("bad_mode");
    }
    Intent pending = subscription.state().pendingIntent();
    if (pending != intent || subscription.pendingSince() == null) {
      return new Answer.NotFound("not_pending");
    }
    var now = clock.instant();
    if (now.isAfter(subscription.pendingSince().plus(pendingFor))) {
      return new Answer.NotFound("pending_too_old");
    }
    String challenge = query.get("hub.challenge");
    if (challenge == null || challenge.isEmpty() || challenge.length() > MAX_CHALLENGE) {
      return new Answer.NotFound("bad_challenge");
    }
    if (intent == Intent.UNSUBSCRIBE) {
      return new Answer.Echo(challenge, subscription.unsubscribed());
    }
    Long lease = leaseSeconds(query.get("hub.lease_seconds"));
    if (lease == null) {
      return new Answer.NotFound("bad_lease");
    }
    return new Answer.Echo(challenge, subscription.verified(Duration.ofSeconds(lease), now));
  }

  private static Long leaseSeconds(String s) {
    if (s == null || s.isEmpty() || s.length() > 10) {
      return null;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return null;
      }
    }
    long v = Long.parseLong(s);
    return v <= 0 || v > MAX_LEASE_SECONDS ? null : v;
  }

  /** A hub's reason, bounded and without control characters, as it is stored and shown. */
  private static String reason(String s) {
    if (s == null) {
      return null;
    }
    String clean = s.replaceAll("\\p{Cntrl}", " ").strip();
    return clean.length() > 200 ? clean.substring(0, 200) : clean;
  }
}
