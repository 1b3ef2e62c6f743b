package io.freshet.push.websub;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * What to send a hub for one subscription now, if anything: the rules of requesting, renewing,
 * re-requesting and lapsing, as one pure function of the subscription and the time.
 *
 * @param renewAt the share of a lease after which it is renewed (0.8: at 80 %)
 * @param verifyTimeout how long a sent request waits for the hub's verification before it is sent
 *     again
 */
public record LeasePlan(Clock clock, double renewAt, Duration verifyTimeout) {

  public LeasePlan {
    if (!(renewAt > 0 && renewAt < 1)) {
      throw new IllegalArgumentException("renewAt must be in (0, 1), got " + renewAt);
    }
  }

  /** The step due now, and the subscription as it stands once the step's request is sent. */
  public record Step(Intent send, Subscription next) {
    static Step none(Subscription s) {
      return new Step(null, s);
    }
  }

  /**
   * The step due now. {@code wanted} says whether the source still wants push (enabled, still
   * announcing this hub and topic); when it does not, a live subscription is unsubscribed.
   */
  public Step next(Subscription s, boolean wanted) {
    Instant now = clock.instant();
    if (!wanted) {
      return switch (s.state()) {
        case ACTIVE, EXPIRING ->
            s.live(now)
                ? new Step(Intent.UNSUBSCRIBE, s.unsubscribing(now))
                : Step.none(s.expired());
        case UNSUBSCRIBING ->
            timedOut(s, now) ? new Step(Intent.UNSUBSCRIBE, s.unsubscribing(now)) : Step.none(s);
        default -> Step.none(s);
      };
    }
    return switch (s.state()) {
      case REQUESTED ->
          timedOut(s, now) ? new Step(Intent.SUBSCRIBE, s.requested(now)) : Step.none(s);
      case ACTIVE -> {
        if (!s.live(now)) {
          yield new Step(Intent.SUBSCRIBE, s.requested(now));
        }
        yield now.isBefore(renewalTime(s))
            ? Step.none(s)
            : new Step(Intent.SUBSCRIBE, s.renewing(now));
      }
      case EXPIRING -> {
        if (!s.live(now)) {
          yield new Step(Intent.SUBSCRIBE, s.requested(now));
        }
        yield timedOut(s, now) ? new Step(Intent.SUBSCRIBE, s.renewing(now)) : Step.none(s);
      }
      case EXPIRED, UNSUBSCRIBED -> new Step(Intent.SUBSCRIBE, s.requested(now));
      case UNSUBSCRIBING -> new Step(Intent.SUBSCRIBE, s.requested(now));
      case DENIED -> Step.none(s);
    };
  }

  /** When the subscription's lease is due for renewal: {@code renewAt} of the way through it. */
  public Instant renewalTime(Subscription s) {
    if (s.leaseStartedAt() == null || s.leaseExpiresAt() == null) {
      return Instant.MIN;
    }
    long leaseMs = Duration.between(s.leaseStartedAt(), s.leaseExpiresAt()).toMillis();
    return s.leaseStartedAt().plusMillis((long) (leaseMs * renewAt));
  }

  private boolean timedOut(Subscription s, Instant now) {
    return s.pendingSince() == null || !now.isBefore(s.pendingSince().plus(verifyTimeout));
  }
}
