package io.freshet.kit.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The token buckets on a clock the test turns: refill, Retry-After, bounded memory. */
class RateLimiterTest {

  /** A clock that moves only when told. */
  static final class FakeTime implements TimeMeter {
    long nanos;

    void advance(Duration d) {
      nanos += d.toNanos();
    }

    @Override
    public long currentTimeNanos() {
      return nanos;
    }

    @Override
    public boolean isWallClockBased() {
      return false;
    }
  }

  private final FakeTime time = new FakeTime();

  private static RateLimitSettings settings(int maxBuckets) {
    var d = RateLimitSettings.defaults();
    return new RateLimitSettings(
        true,
        d.admin(),
        d.tenant(),
        RateLimit.valueOf("2/1m"),
        d.tiers(),
        Map.of(),
        maxBuckets,
        Duration.ofMinutes(10));
  }

  @Test
  void aBucketRefusesPastItsSizeSaysWhenToRetryAndRefillsEvenly() {
    var limiter = new RateLimiter(settings(100), time);
    var limit = RateLimit.valueOf("3/1m");

    assertThat(limiter.tryConsume("key:a", limit).remaining()).isEqualTo(2);
    assertThat(limiter.tryConsume("key:a", limit).allowed()).isTrue();
    assertThat(limiter.tryConsume("key:a", limit).allowed()).isTrue();
    var refused = limiter.tryConsume("key:a", limit);

    assertThat(refused.allowed()).isFalse();
    // one request refills every 20 s
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(20));
    assertThat(refused.retryAfterSeconds()).isEqualTo(20);
    assertThat(limiter.tryConsume("key:b", limit).allowed())
        .as("another key has its own bucket")
        .isTrue();

    time.advance(Duration.ofSeconds(19));
    assertThat(limiter.tryConsume("key:a", limit).allowed()).isFalse();
    time.advance(Duration.ofSeconds(1));
    assertThat(limiter.tryConsume("key:a", limit).allowed()).isTrue();
    assertThat(limiter.tryConsume("key:a", limit).allowed()).isFalse();
  }

  @Test
  void retryAfterRoundsUpToAWholeSecondOfAtLeastOne() {
    assertThat(new RateLimiter.Decision(false, 0, Duration.ofMillis(1)).retryAfterSeconds())
        .isEqualTo(1);
    assertThat(new RateLimiter.Decision(false, 0, Duration.ofMillis(1_001)).retryAfterSeconds())
        .isEqualTo(2);
  }

  @Test
  void aFullTableSendsNewcomersToOneSharedOverflowBucketAndDropsIdleOnes() {
    var limiter = new RateLimiter(settings(3), time);
    var limit = RateLimit.valueOf("100/1m");
    for (String caller : new String[] {"address:1", "address:2", "address:3"}) {
      assertThat(limiter.tryConsume(caller, limit).allowed()).isTrue();
    }

    // a flood of new addresses: they share the overflow bucket (anonymous limit, 2/1m)
    assertThat(limiter.tryConsume("address:4", limit).allowed()).isTrue();
    assertThat(limiter.tryConsume("address:5", limit).allowed()).isTrue();
    assertThat(limiter.tryConsume("address:6", limit).allowed()).isFalse();
    for (int i = 7; i < 10_000; i++) {
      limiter.tryConsume("address:" + i, limit);
    }
    assertThat(limiter.size()).isLessThanOrEqualTo(4);
    assertThat(limiter.tryConsume("address:1", limit).allowed())
        .as("a caller already held keeps its own bucket")
        .isTrue();

    time.advance(Duration.ofMinutes(11));
    assertThat(limiter.tryConsume("address:new", limit).allowed()).isTrue();
    assertThat(limiter.size()).as("idle buckets dropped, the newcomer admitted").isEqualTo(1);
  }

  @Test
  void aChangedLimitGivesTheCallerANewBucket() {
    var limiter = new RateLimiter(settings(100), time);
    var one = RateLimit.valueOf("1/1h");
    assertThat(limiter.tryConsume("key:a", one).allowed()).isTrue();
    assertThat(limiter.tryConsume("key:a", one).allowed()).isFalse();

    assertThat(limiter.tryConsume("key:a", RateLimit.valueOf("5/1h")).allowed()).isTrue();
  }

  @Test
  void limitsAreByRoleTierAndTenant() {
    var d = RateLimitSettings.defaults();
    var s =
        new RateLimitSettings(
            true,
            d.admin(),
            d.tenant(),
            d.anonymous(),
            null,
            Map.of("acme", "pro"),
            10,
            Duration.ofMinutes(1));

    assertThat(s.limitOf(Role.ADMIN, null)).isEqualTo(RateLimit.valueOf("6000/1m"));
    assertThat(s.limitOf(Role.READ, "acme")).isEqualTo(s.tiers().get("pro"));
    assertThat(s.limitOf(Role.WRITE, "globex")).isEqualTo(s.tenant());
    assertThat(s.limitOf(Role.READ, null)).isEqualTo(s.tenant());
    assertThat(s.tiers()).containsOnlyKeys("free", "starter", "pro");
  }

  @Test
  void aLimitIsRequestsPerPeriodAndATenantNamesAKnownTier() {
    assertThat(RateLimit.valueOf(" 20/1s ")).isEqualTo(new RateLimit(20, Duration.ofSeconds(1)));
    assertThat(RateLimit.valueOf("1200/PT1M").period()).hasMinutes(1);
    for (String bad : new String[] {"", "20", "/1s", "20/", "0/1s", "x/1s", "20/0s", "20/soon"}) {
      assertThatThrownBy(() -> RateLimit.valueOf(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
    var d = RateLimitSettings.defaults();
    assertThatThrownBy(
            () ->
                new RateLimitSettings(
                    true,
                    d.admin(),
                    d.tenant(),
                    d.anonymous(),
                    null,
                    Map.of("acme", "platinum"),
                    10,
                    Duration.ofMinutes(1)))
        .hasMessageContaining("platinum");
  }

  @Test
  void anIpv6AddressCountsByItsSlash64() {
    assertThat(RateLimitFilter.addressBucket("2001:db8:1:2:aaaa::1"))
        .isEqualTo(RateLimitFilter.addressBucket("2001:db8:1:2:bbbb::9"))
        .isEqualTo("2001:db8:1:2::/64");
    assertThat(RateLimitFilter.addressBucket("203.0.113.7")).isEqualTo("203.0.113.7");
  }
}
