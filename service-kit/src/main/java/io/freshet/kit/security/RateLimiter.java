package io.freshet.kit.security;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Token buckets (Bucket4j) by caller, in memory, with bounded size: a bucket unused for {@code
 * idleExpiry} is dropped (it would be full again by then); when {@code maxBuckets} are held even
 * after dropping idle ones, a newcomer shares one overflow bucket — so a flood of new remote
 * addresses costs bounded memory and buys no more requests than one address would.
 *
 * <p>Time comes from a {@link TimeMeter} (tests drive a fake one).
 */
public final class RateLimiter {

  /** The answer for one request. */
  public record Decision(boolean allowed, long remaining, Duration retryAfter) {

    /** {@code Retry-After} in whole seconds, at least 1. */
    public long retryAfterSeconds() {
      return Math.max(1, (retryAfter.toNanos() + 999_999_999L) / 1_000_000_000L);
    }
  }

  private record Entry(Bucket bucket, RateLimit limit, AtomicLong lastUsed) {}

  /** The bucket newcomers share while the table is full. */
  static final String OVERFLOW = "overflow";

  private final Map<String, Entry> buckets = new ConcurrentHashMap<>();
  private final TimeMeter time;
  private final int maxBuckets;
  private final long idleNanos;
  private final RateLimit overflowLimit;
  private final AtomicLong lastSweep = new AtomicLong(Long.MIN_VALUE);

  public RateLimiter(RateLimitSettings settings, TimeMeter time) {
    this.time = time;
    this.maxBuckets = settings.maxBuckets();
    this.idleNanos = settings.idleExpiry().toNanos();
    this.overflowLimit = settings.anonymous();
  }

  /** Takes one request from {@code caller}'s bucket of {@code limit}. */
  public Decision tryConsume(String caller, RateLimit limit) {
    long now = time.currentTimeNanos();
    Entry entry = buckets.get(caller);
    if (entry == null || !entry.limit().equals(limit)) {
      entry = admit(caller, limit, now);
    }
    entry.lastUsed().set(now);
    var probe = entry.bucket().tryConsumeAndReturnRemaining(1);
    return new Decision(
        probe.isConsumed(),
        probe.getRemainingTokens(),
        Duration.ofNanos(probe.isConsumed() ? 0 : probe.getNanosToWaitForRefill()));
  }

  /** How many buckets are held (the overflow bucket included). */
  public int size() {
    return buckets.size();
  }

  private Entry admit(String caller, RateLimit limit, long now) {
    sweep(now);
    if (buckets.size() >= maxBuckets && !buckets.containsKey(caller)) {
      return buckets.computeIfAbsent(OVERFLOW, k -> entry(overflowLimit, now));
    }
    return buckets.compute(
        caller, (k, old) -> old != null && old.limit().equals(limit) ? old : entry(limit, now));
  }

  /** Drops idle buckets, at most once a second (a newcomer must not cost a scan each). */
  private void sweep(long now) {
    long last = lastSweep.get();
    if (last != Long.MIN_VALUE && now - last < TimeUnit.SECONDS.toNanos(1)) {
      return;
    }
    if (lastSweep.compareAndSet(last, now)) {
      buckets.entrySet().removeIf(e -> now - e.getValue().lastUsed().get() >= idleNanos);
    }
  }

  private Entry entry(RateLimit limit, long now) {
    Bucket bucket =
        Bucket.builder()
            .addLimit(
                l -> l.capacity(limit.requests()).refillGreedy(limit.requests(), limit.period()))
            .withCustomTimePrecision(time)
            .build();
    return new Entry(bucket, limit, new AtomicLong(now));
  }
}
