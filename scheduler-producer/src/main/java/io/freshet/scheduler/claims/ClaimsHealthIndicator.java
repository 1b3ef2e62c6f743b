package io.freshet.scheduler.claims;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * Readiness of "can claim and emit", so that an instance whose every round fails is not reported
 * UP: DOWN while the latest claim round failed (database unreachable, broker not acknowledging,
 * schemas not registered...), with its cause. It reads what the claim loop last saw, so it answers
 * at once whatever is down.
 */
@Component("claims")
class ClaimsHealthIndicator implements HealthIndicator {

  private final ClaimLoop loop;

  ClaimsHealthIndicator(ClaimLoop loop) {
    this.loop = loop;
  }

  @Override
  public Health health() {
    ClaimLoop.RoundResult last = loop.lastRound();
    if (!loop.isRunning()) {
      return Health.up().withDetail("claiming", "disabled in this instance").build();
    }
    if (last == null) {
      return Health.unknown().withDetail("claiming", "no round finished yet").build();
    }
    if (last.failure() != null) {
      return Health.down()
          .withDetail("last_round_at", last.at().toString())
          .withDetail("failure", last.failure())
          .build();
    }
    return Health.up().withDetail("last_round_at", last.at().toString()).build();
  }
}
