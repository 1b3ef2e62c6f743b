package io.freshet.worker.politeness;

import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.Politeness;
import io.freshet.worker.http.Sleeper;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spaces requests to each host: at most {@code maxConcurrent} at a time, starts at least {@code
 * minDelay} apart, none during a host-wide cool-down after a 429/503. Each host has its own state
 * and waiting happens on the caller's (virtual) thread, so a slow or throttled host never holds up
 * another.
 *
 * <p>Requests are keyed by host on the topic, so one host's requests meet in one instance and this
 * needs no coordination between instances.
 */
public final class HostPoliteness implements Politeness {

  private final PolitenessSettings settings;
  private final Clock clock;
  private final Sleeper sleeper;
  private final ConcurrentHashMap<String, HostState> hosts = new ConcurrentHashMap<>();
  private final AtomicLong coolDowns = new AtomicLong();
  private final int maxIdleHosts;

  public HostPoliteness(PolitenessSettings settings, Clock clock, Sleeper sleeper) {
    this(settings, clock, sleeper, 10_000);
  }

  /**
   * @param maxIdleHosts when more hosts than this are remembered, those idle (no request in flight,
   *     no delay or cool-down pending) are forgotten, so the state stays bounded
   */
  HostPoliteness(PolitenessSettings settings, Clock clock, Sleeper sleeper, int maxIdleHosts) {
    this.settings = settings;
    this.clock = clock;
    this.sleeper = sleeper;
    this.maxIdleHosts = maxIdleHosts;
  }

  /** Hosts remembered now (a metric, and for tests). */
  public int hostCount() {
    return hosts.size();
  }

  private void forgetIdleHosts() {
    if (hosts.size() <= maxIdleHosts) {
      return;
    }
    Instant now = clock.instant();
    int max = settings.maxConcurrent();
    hosts.entrySet().removeIf(e -> e.getValue().idleAt(now, max));
  }

  /**
   * Waits for a turn at {@code host}: a free slot, then the host's next allowed start time.
   *
   * @throws InterruptedException when the worker stops meanwhile (the slot is given back)
   */
  public Permit acquire(String host) throws InterruptedException {
    try {
      return acquire(host, null, null);
    } catch (FetchFailure impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  /**
   * As {@link #acquire(String)}, but refuses at once, rather than wait, when the host's cool-down
   * ends more than {@code maxCoolDownWait} from now — a fetch must not sit out a long cool-down
   * (its batch would outlive the consumer's poll interval); the scheduler retries after it.
   *
   * <p>Nor does it wait for a turn that starts after {@code notAfter} (the request's lease end; the
   * scheduler has re-emitted it by then): it refuses at once and the turn stays free for the next
   * request. So a host with more requests than its delay lets through before their lease ends
   * answers the rest {@code expired} instead of fetching them late, twice with the re-emitted ones.
   *
   * @param maxCoolDownWait null to wait out any cool-down
   * @param notAfter null for no limit
   * @throws FetchFailure {@code host_cooling_down} with the cool-down's end as retry-after; {@link
   *     ErrorKind#EXPIRED} when the turn would start after {@code notAfter}
   */
  @Override
  public Permit acquire(String host, Duration maxCoolDownWait, Instant notAfter)
      throws InterruptedException, FetchFailure {
    String key = key(host);
    forgetIdleHosts();
    HostState state = hosts.computeIfAbsent(key, h -> new HostState(settings.maxConcurrent()));
    Duration minDelay = state.minDelay(settings.minDelayFor(key));
    state.slots.acquire();
    try {
      Instant start;
      synchronized (state) {
        Instant now = clock.instant();
        if (maxCoolDownWait != null && state.coolDownUntil.isAfter(now.plus(maxCoolDownWait))) {
          throw new FetchFailure(
              ErrorKind.HOST_COOLING_DOWN,
              "host "
                  + key
                  + " is cooling down after a 429/503 until "
                  + state.coolDownUntil
                  + "; not asked before then",
              null,
              1,
              state.coolDownUntil);
        }
        start = max(now, max(state.nextStart, state.coolDownUntil));
        if (notAfter != null && start.isAfter(notAfter)) {
          throw new FetchFailure(
              ErrorKind.EXPIRED,
              "the next turn at host "
                  + key
                  + " starts at "
                  + start
                  + ", after the request's not_after "
                  + notAfter
                  + "; not fetched (the scheduler re-emits)",
              null,
              0,
              null);
        }
        state.nextStart = start.plus(minDelay);
      }
      sleeper.sleep(Duration.between(clock.instant(), start));
      // A sleeper may wake late, and the previous holder later still: the actual starts, not only
      // the planned ones, are kept minDelay apart.
      while (true) {
        Instant earliest;
        synchronized (state) {
          Instant now = clock.instant();
          earliest = state.lastStart.plus(minDelay);
          if (!earliest.isAfter(now)) {
            state.lastStart = now;
            state.nextStart = max(state.nextStart, now.plus(minDelay));
            break;
          }
        }
        sleeper.sleep(Duration.between(clock.instant(), earliest));
      }
    } catch (InterruptedException | FetchFailure | RuntimeException e) {
      state.slots.release();
      throw e;
    }
    return state.slots::release;
  }

  /**
   * Pauses every request to {@code host} after a 429/503: until {@code retryAfter} when the server
   * said, else for the base pause doubled per cool-down in a row; capped either way.
   *
   * @return the end of the cool-down
   */
  @Override
  public Instant coolDown(String host, Instant retryAfter) {
    HostState state =
        hosts.computeIfAbsent(key(host), h -> new HostState(settings.maxConcurrent()));
    Instant now = clock.instant();
    Instant cap = now.plus(settings.coolDownMax());
    synchronized (state) {
      state.consecutive++;
      Instant until =
          retryAfter != null
              ? retryAfter
              : now.plus(
                  settings.coolDownBase().multipliedBy(1L << Math.min(16, state.consecutive - 1)));
      if (until.isAfter(cap)) {
        until = cap;
      }
      state.coolDownUntil = max(state.coolDownUntil, until);
      coolDowns.incrementAndGet();
      return state.coolDownUntil;
    }
  }

  /** A successful answer from {@code host} ends its run of cool-downs. */
  @Override
  public void answered(String host) {
    HostState state = hosts.get(key(host));
    if (state != null) {
      synchronized (state) {
        state.consecutive = 0;
      }
    }
  }

  /**
   * Raises {@code host}'s spacing to its robots.txt {@code Crawl-delay} (callers cap it): requests
   * then start at least {@code delay} apart, or the configured delay when that is longer. A later
   * call replaces it. Kept with the host's other state: a host forgotten while idle (no wait
   * pending) gets it again from the next robots check.
   */
  @Override
  public void crawlDelay(String host, Duration delay) {
    String key = key(host);
    HostState state = hosts.computeIfAbsent(key, h -> new HostState(settings.maxConcurrent()));
    synchronized (state) {
      state.crawlDelay = delay == null || delay.isNegative() ? Duration.ZERO : delay;
    }
  }

  /** The least time between two starts at {@code host} now: configured or Crawl-delay (tests). */
  public Duration minDelayFor(String host) {
    String key = key(host);
    HostState state = hosts.get(key);
    Duration configured = settings.minDelayFor(key);
    return state == null ? configured : state.minDelay(configured);
  }

  /** Cool-downs started since this instance began (a metric). */
  public long coolDownCount() {
    return coolDowns.get();
  }

  /** Hosts currently in a cool-down (a metric). */
  public long hostsCoolingDown() {
    Instant now = clock.instant();
    return hosts.values().stream().filter(s -> s.coolingDownAt(now)).count();
  }

  private static String key(String host) {
    return host == null ? "" : host.toLowerCase(Locale.ROOT);
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static final class HostState {
    final Semaphore slots;
    Instant nextStart = Instant.EPOCH;
    Instant lastStart = Instant.EPOCH;
    Instant coolDownUntil = Instant.EPOCH;
    Duration crawlDelay = Duration.ZERO;
    int consecutive;

    HostState(int maxConcurrent) {
      this.slots = new Semaphore(maxConcurrent, true);
    }

    synchronized Duration minDelay(Duration configured) {
      return crawlDelay.compareTo(configured) > 0 ? crawlDelay : configured;
    }

    synchronized boolean coolingDownAt(Instant now) {
      return coolDownUntil.isAfter(now);
    }

    // A state is dropped only when forgetting it changes nothing: no slot taken, no wait pending.
    synchronized boolean idleAt(Instant now, int maxConcurrent) {
      return slots.availablePermits() == maxConcurrent
          && !nextStart.isAfter(now)
          && !coolDownUntil.isAfter(now);
    }
  }
}
