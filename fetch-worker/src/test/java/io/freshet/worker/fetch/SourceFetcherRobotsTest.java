package io.freshet.worker.fetch;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.http.AddressResolver;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.SsrfGuard;
import io.freshet.worker.politeness.HostPoliteness;
import io.freshet.worker.politeness.PolitenessSettings;
import io.freshet.worker.robots.RobotsDecision.Verdict;
import io.freshet.worker.robots.RobotsGuard;
import io.freshet.worker.robots.RobotsSettings;
import io.freshet.worker.signal.RuleSignalClassifier;
import io.freshet.worker.signal.SignalRules;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.Requests;
import io.freshet.worker.testing.TestFetchPaths;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** robots.txt in the whole fetch path: what the worker emits for a source it may not fetch. */
class SourceFetcherRobotsTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final String PAGE =
      "<html><head><title>Club</title></head><body><main>Meet us on Friday</main></body></html>";
  private static FeedServer server;

  private final FakeTime time = new FakeTime(NOW);
  private final HostPoliteness politeness =
      new HostPoliteness(
          new PolitenessSettings(Duration.ZERO, 4, Duration.ofSeconds(1), Duration.ofMinutes(1)),
          time,
          time.sleeper());
  private final HttpFetcher http =
      new HttpFetcher(
          TestFetchPaths.settings(),
          new SsrfGuard(AddressResolver.SYSTEM, true, false),
          politeness,
          time,
          time.sleeper());
  private final RobotsGuard robots =
      new RobotsGuard(RobotsSettings.defaults("freshet"), http, politeness, time);
  private final SourceFetcher fetcher =
      new SourceFetcher(
          FetchPath.connectors(),
          http,
          new RuleSignalClassifier(new SignalRules(List.of(), List.of(), List.of())),
          new CredentialsOpener(
              CredentialCipher.fromBase64Key(Base64.getEncoder().encodeToString(new byte[32]))),
          new ConnectorOptions(50, Duration.ofDays(30), Duration.ofDays(60), false),
          1_000,
          TestFetchPaths.parsing(),
          robots,
          time);

  @BeforeAll
  static void start() {
    server = FeedServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @AfterEach
  void reset() {
    server.reset();
    http.close();
  }

  private FetchResult fetch(Connector connector, String path, Map<String, String> config)
      throws InterruptedException {
    return fetcher.fetch(
        Requests.request(connector, server.url(path), NOW).setConfig(config).build(), false);
  }

  @Test
  void aDisallowedHtmlSourceEndsFailedWithErrorKindRobotsAndItsUrlIsNeverRequested()
      throws Exception {
    server.serve("/robots.txt", "text/plain", "User-agent: freshet\nDisallow: /members\n", null);
    server.serve("/members/page", "text/html", PAGE, null);

    FetchResult result = fetch(Connector.html, "/members/page", Map.of());

    FetchCompleted completed = result.completed();
    assertThat(completed.getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(completed.getErrorKind()).isEqualTo("robots");
    assertThat(completed.getErrorMessage())
        .contains(server.url("/robots.txt"))
        .contains("disallows /members/page")
        .contains("Disallow: /members");
    assertThat(completed.getAttempts()).isZero();
    assertThat(completed.getCursor()).isNull();
    assertThat(completed.getItems()).isEmpty();
    assertThat(result.content()).isEmpty();
    assertThat(result.robots().verdict()).isEqualTo(Verdict.DISALLOWED);
    assertThat(server.requests("/members/page")).isEmpty();
    assertThat(server.requests("/robots.txt")).hasSize(1);
  }

  @Test
  void anAllowedHtmlSourceIsFetchedAfterOneRobotsRequestPerHost() throws Exception {
    server.serve("/robots.txt", "text/plain", "User-agent: *\nDisallow: /members\n", null);
    server.serve("/club", "text/html", PAGE, null);

    FetchResult first = fetch(Connector.html, "/club", Map.of());
    FetchResult second = fetch(Connector.html, "/club", Map.of());

    assertThat(first.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(first.completed().getItems()).hasSize(1);
    assertThat(first.robots().verdict()).isEqualTo(Verdict.ALLOWED);
    assertThat(second.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(server.requests("/club")).hasSize(2);
    assertThat(server.requests("/robots.txt")).hasSize(1);
  }

  @Test
  void anUnreachableRobotsTxtEndsFailedWithRobotsToo() throws Exception {
    server.failWith("/robots.txt", 500, null);
    server.serve("/club", "text/html", PAGE, null);

    FetchCompleted completed = fetch(Connector.html, "/club", Map.of()).completed();

    assertThat(completed.getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(completed.getErrorKind()).isEqualTo("robots");
    assertThat(completed.getErrorMessage()).contains("unreachable").contains("HTTP 500");
    assertThat(server.requests("/club")).isEmpty();
  }

  @Test
  void feedsAreFetchedWithoutAskingUnlessTheSourceSaysObey() throws Exception {
    server.serve("/robots.txt", "text/plain", "User-agent: *\nDisallow: /\n", null);
    server.serve("/feed.xml", "application/rss+xml", Requests.rss("a"), null);

    FetchResult feed = fetch(Connector.feed, "/feed.xml", Map.of());
    assertThat(feed.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(feed.robots().verdict()).isEqualTo(Verdict.NOT_APPLIED);
    assertThat(server.requests("/robots.txt")).isEmpty();

    FetchResult obeying = fetch(Connector.feed, "/feed.xml", Map.of("robots", "obey"));
    assertThat(obeying.completed().getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(obeying.completed().getErrorKind()).isEqualTo("robots");
    assertThat(server.requests("/feed.xml")).hasSize(1);
  }

  @Test
  void anOwnerMayWaiveRobotsTxtForTheirOwnSite() throws Exception {
    server.serve("/robots.txt", "text/plain", "User-agent: *\nDisallow: /\n", null);
    server.serve("/club", "text/html", PAGE, null);

    FetchResult result = fetch(Connector.html, "/club", Map.of("robots", "ignore"));

    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(result.robots().verdict()).isEqualTo(Verdict.WAIVED);
    assertThat(server.requests("/robots.txt")).isEmpty();
  }

  @Test
  void anotherRobotsValueIsAConfigErrorNamingTheOption() throws Exception {
    server.serve("/club", "text/html", PAGE, null);

    FetchCompleted completed = fetch(Connector.html, "/club", Map.of("robots", "no")).completed();

    assertThat(completed.getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(completed.getErrorKind()).isEqualTo("config");
    assertThat(completed.getErrorMessage())
        .isEqualTo("config.robots must be 'obey' or 'ignore', was 'no'");
    assertThat(server.requests("/robots.txt")).isEmpty();
    assertThat(server.requests("/club")).isEmpty();
  }

  @Test
  void theRobotsRequestTakesATurnAtTheHostAndCrawlDelaySpacesTheSourcesRequest() throws Exception {
    server.serve("/robots.txt", "text/plain", "User-agent: *\nCrawl-delay: 7\n", null);
    server.serve("/club", "text/html", PAGE, null);

    FetchResult result = fetch(Connector.html, "/club", Map.of());

    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    // the page's request waited the Crawl-delay after the robots request (politeness min-delay 0)
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(7));
  }
}
