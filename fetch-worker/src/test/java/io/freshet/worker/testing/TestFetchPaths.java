package io.freshet.worker.testing;

import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.worker.budget.BudgetLimits;
import io.freshet.worker.budget.ParsePool;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.fetch.CredentialsOpener;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.AddressResolver;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.HttpSettings;
import io.freshet.worker.http.SsrfGuard;
import io.freshet.worker.politeness.HostPoliteness;
import io.freshet.worker.politeness.PolitenessSettings;
import io.freshet.worker.signal.RuleSignalClassifier;
import io.freshet.worker.signal.SignalRules;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * HTTP fetchers for tests: loopback allowed, no politeness delay, waits recorded on a fake clock.
 */
public final class TestFetchPaths {

  private static final ParsePool PARSING =
      new ParsePool(2, new BudgetLimits(Duration.ofSeconds(5), 1L << 30, Duration.ofSeconds(20)));

  private static final String ZERO_KEY = Base64.getEncoder().encodeToString(new byte[32]);

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

  /** {@link #settings()} with 20 MiB body caps and no retries: for documents near the real caps. */
  public static HttpSettings largeBodySettings() {
    return new HttpSettings(
        Duration.ofSeconds(2),
        Duration.ofSeconds(30),
        0,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        20L << 20,
        20L << 20,
        5,
        "Freshet-test");
  }

  /**
   * The whole fetch path over {@code http}: every connector, no keyword rules, a zero credentials
   * key, a 10,000-character body cap and the shared parse threads.
   */
  public static SourceFetcher sourceFetcher(
      HttpFetcher http, ConnectorOptions options, FakeTime time) {
    return new SourceFetcher(
        FetchPath.connectors(),
        http,
        new RuleSignalClassifier(new SignalRules(List.of(), List.of(), List.of())),
        new CredentialsOpener(CredentialCipher.fromBase64Key(ZERO_KEY)),
        options,
        10_000,
        PARSING,
        time);
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
