package io.freshet.worker.testing;

import io.freshet.worker.budget.BudgetLimits;
import io.freshet.worker.budget.ParsePool;
import io.freshet.worker.http.AddressResolver;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.HttpSettings;
import io.freshet.worker.http.SsrfGuard;
import io.freshet.worker.politeness.HostPoliteness;
import io.freshet.worker.politeness.PolitenessSettings;
import java.time.Duration;

/**
 * HTTP fetchers for tests: loopback allowed, no politeness delay, waits recorded on a fake clock.
 */
public final class TestFetchPaths {

  private static final ParsePool PARSING =
      new ParsePool(2, new BudgetLimits(Duration.ofSeconds(5), 1L << 30, Duration.ofSeconds(20)));

  private TestFetchPaths() {}

  /** Parse threads with the service's default budget, shared by the tests of one JVM. */
  public static ParsePool parsing() {
    return PARSING;
  }

  public static HttpSettings settings() {
    return new HttpSettings(
        Duration.ofSeconds(2),
        Duration.ofSeconds(3),
        3,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        64 * 1024,
        256 * 1024,
        5,
        "Freshet-test");
  }

  public static HttpFetcher fetcher(FakeTime time) {
    return fetcher(time, settings());
  }

  public static HttpFetcher fetcher(FakeTime time, HttpSettings settings) {
    return fetcher(
        time,
        settings,
        new PolitenessSettings(Duration.ZERO, 4, Duration.ofSeconds(1), Duration.ofMinutes(1)));
  }

  public static HttpFetcher fetcher(
      FakeTime time, HttpSettings settings, PolitenessSettings politenessSettings) {
    var politeness = new HostPoliteness(politenessSettings, time, time.sleeper());
    return new HttpFetcher(
        settings,
        new SsrfGuard(AddressResolver.SYSTEM, true, false),
        politeness,
        time,
        time.sleeper());
  }
}
