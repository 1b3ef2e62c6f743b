package io.freshet.kit.security;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import java.time.Duration;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code freshet.security.rate-limit.*}: fair use of a service's API, a token bucket per API key
 * (environment {@code FRESHET_SECURITY_RATE_LIMIT_*}). Each limit is written {@code
 * <requests>/<period>}, e.g. {@code 1200/1m}: a bucket of that many requests, refilled evenly over
 * the period (so also the largest burst). A request beyond it is answered 429 with {@code
 * Retry-After}.
 *
 * <p>Which limit a request counts against: an admin key's ({@code admin}); a tenant key's tenant
 * named in {@code tenants} gets its tier's limit from {@code tiers}; any other tenant key {@code
 * tenant}; a request without a valid key counts against its remote address ({@code anonymous}; IPv6
 * addresses by their /64). Each service counts its own requests, each instance its own.
 *
 * @param enabled whether requests are counted at all
 * @param admin the limit of each admin key (the bootstrap admin key too)
 * @param tenant the limit of each tenant key whose tenant {@code tenants} does not name
 * @param anonymous the limit of each remote address for requests without a valid key (health probes
 *     and the management port are never counted)
 * @param tiers limits by tier name; unset: {@code free} 300/1m, {@code starter} 1200/1m, {@code
 *     pro} 6000/1m
 * @param tenants tenant id → tier name, for tenants whose keys get their tier's limit (the tier is
 *     the scheduler's tenant attribute; repeat it here for the tenants that pay for more)
 * @param maxBuckets most buckets held at once: when full (after dropping idle ones), newcomers
 *     share one overflow bucket of the {@code anonymous} limit, so a flood of new addresses costs
 *     bounded memory and gains nothing
 * @param idleExpiry a bucket unused this long is dropped (it would be full again anyway)
 */
@Validated
@ConfigurationProperties("freshet.security.rate-limit")
public record RateLimitSettings(
    @DefaultValue("true") boolean enabled,
    @NotNull @DefaultValue("6000/1m") RateLimit admin,
    @NotNull @DefaultValue("1200/1m") RateLimit tenant,
    @NotNull @DefaultValue("300/1m") RateLimit anonymous,
    Map<String, RateLimit> tiers,
    Map<String, String> tenants,
    @Positive @DefaultValue("100000") int maxBuckets,
    @NotNull @DefaultValue("10m") Duration idleExpiry) {

  /** The tiers' limits when {@code tiers} is not set. */
  public static final Map<String, RateLimit> DEFAULT_TIERS =
      Map.of(
          "free", RateLimit.valueOf("300/1m"),
          "starter", RateLimit.valueOf("1200/1m"),
          "pro", RateLimit.valueOf("6000/1m"));

  public RateLimitSettings {
    tiers = tiers == null || tiers.isEmpty() ? DEFAULT_TIERS : Map.copyOf(tiers);
    tenants = tenants == null ? Map.of() : Map.copyOf(tenants);
    for (var e : tenants.entrySet()) {
      if (!tiers.containsKey(e.getValue())) {
        throw new IllegalArgumentException(
            "freshet.security.rate-limit.tenants."
                + e.getKey()
                + ": tier '"
                + e.getValue()
                + "' is not one of freshet.security.rate-limit.tiers "
                + tiers.keySet());
      }
    }
  }

  /** The settings' defaults. */
  public static RateLimitSettings defaults() {
    return new RateLimitSettings(
        true,
        RateLimit.valueOf("6000/1m"),
        RateLimit.valueOf("1200/1m"),
        RateLimit.valueOf("300/1m"),
        DEFAULT_TIERS,
        Map.of(),
        100_000,
        Duration.ofMinutes(10));
  }

  /** The limit of a key of {@code role} acting for {@code tenantId} (null: every tenant). */
  public RateLimit limitOf(Role role, String tenantId) {
    if (role == Role.ADMIN) {
      return admin;
    }
    if (tenantId != null) {
      String tier = tenants.get(tenantId);
      if (tier != null) {
        return tiers.get(tier);
      }
    }
    return tenant;
  }
}
