package io.freshet.worker.robots;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.avro.Connector;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.http.AddressResolver;
import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.SsrfGuard;
import io.freshet.worker.politeness.HostPoliteness;
import io.freshet.worker.politeness.PolitenessSettings;
import io.freshet.worker.robots.RobotsDecision.Verdict;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.TestFetchPaths;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** robots.txt as RFC 9309 has it, against a real loopback server, on a fake clock. */
class RobotsGuardTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final Map<String, String> NO_OPTIONS = Map.of();
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
  private RobotsGuard guard = guard(RobotsSettings.defaults("freshet"));

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

  private RobotsGuard guard(RobotsSettings settings) {
    return new RobotsGuard(settings, http, politeness, time);
  }

  private void robots(String body) {
    server.serve("/robots.txt", "text/plain", body, null);
  }

  private RobotsDecision check(String path) throws Exception {
    return guard.check(Connector.html, NO_OPTIONS, URI.create(server.url(path)), null);
  }

  private int robotsRequests() {
    return server.requests("/robots.txt").size();
  }

  private static final String RULES =
      """
      User-agent: *
      Disallow: /

      User-agent: otherbot
      Allow: /

      User-agent: Freshet
      Disallow: /private
      Allow: /private/open
      Disallow: /*.pdf$
      Disallow: /tmp*/x
      Allow: /page
      Disallow: /page
      """;

  @Test
  void theLongestMatchDecidesWildcardsAndEndAnchorsApplyAndOnlyOurGroupCounts() throws Exception {
    robots(RULES);

    assertThat(check("/public").verdict()).isEqualTo(Verdict.ALLOWED);
    RobotsDecision secret = check("/private/secret");
    assertThat(secret.verdict()).isEqualTo(Verdict.DISALLOWED);
    assertThat(secret.permits()).isFalse();
    assertThat(secret.robotsUrl()).isEqualTo(server.url("/robots.txt"));
    assertThat(secret.reason())
        .contains(server.url("/robots.txt"))
        .contains("/private/secret")
        .contains("'freshet'")
        .contains("Disallow: /private");
    // a longer Allow beats a shorter Disallow
    assertThat(check("/private/open/page").verdict()).isEqualTo(Verdict.ALLOWED);
    // "$" anchors at the end: a query after .pdf escapes the rule
    assertThat(check("/report.pdf").verdict()).isEqualTo(Verdict.DISALLOWED);
    assertThat(check("/report.pdf?page=2").verdict()).isEqualTo(Verdict.ALLOWED);
    // "*" matches any run of characters
    RobotsDecision wild = check("/tmp-2026/x");
    assertThat(wild.verdict()).isEqualTo(Verdict.DISALLOWED);
    assertThat(wild.reason()).contains("Disallow: /tmp*/x");
    assertThat(check("/tmp-2026/y").verdict()).isEqualTo(Verdict.ALLOWED);
    // equal length: the Allow wins (RFC 9309 2.2.2)
    assertThat(check("/page").verdict()).isEqualTo(Verdict.ALLOWED);

    assertThat(robotsRequests()).isEqualTo(1);
    assertThat(guard.fetchCount(RobotsGuard.Outcome.PARSED)).isEqualTo(1);
    assertThat(guard.decisionCount(Verdict.DISALLOWED)).isEqualTo(3);
    assertThat(guard.decisionCount(Verdict.ALLOWED)).isEqualTo(5);
  }

  @Test
  void anotherProductTokenFallsUnderTheStarGroup() throws Exception {
    robots(RULES);
    guard = guard(RobotsSettings.defaults("somebot"));
    RobotsDecision decision = check("/public");
    assertThat(decision.verdict()).isEqualTo(Verdict.DISALLOWED);
    assertThat(decision.reason()).contains("'somebot'");
  }

  @Test
  void theProductTokenIsTheUserAgentsLeadingWordInLowerCase() {
    assertThat(RobotsSettings.productTokenOf("Freshet/0.1 (+https://github.com/freshet/freshet)"))
        .isEqualTo("freshet");
    assertThat(RobotsSettings.productTokenOf("my_crawler-2")).isEqualTo("my_crawler-");
    assertThatThrownBy(() -> RobotsSettings.productTokenOf("/0.1"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("freshet.robots.product-token");
    assertThatThrownBy(() -> RobotsSettings.defaults("Free Shet"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RobotsSettings.connectors(List.of("html", "rss")))
        .hasMessageContaining("'rss'");
    assertThat(RobotsSettings.connectors(List.of("html", " feed")))
        .containsExactlyInAnyOrder(Connector.html, Connector.feed);
  }

  @Test
  void aClientErrorMeansNoRobotsTxtSoEverythingIsAllowedAndKeptForTheCachePeriod()
      throws Exception {
    server.failWith("/robots.txt", 404, null);
    RobotsDecision decision = check("/anything");
    assertThat(decision.verdict()).isEqualTo(Verdict.ALLOWED);
    assertThat(decision.reason()).contains("absent").contains("HTTP 404");
    time.advance(Duration.ofHours(23));
    check("/other");
    assertThat(robotsRequests()).isEqualTo(1);
    time.advance(Duration.ofHours(1).plusSeconds(1));
    check("/other");
    assertThat(robotsRequests()).isEqualTo(2);
  }

  @Test
  void forbiddenIsAClientErrorToo() throws Exception {
    server.failWith("/robots.txt", 403, null);
    assertThat(check("/x").verdict()).isEqualTo(Verdict.ALLOWED);
  }

  @Test
  void aServerErrorDisallowsEverythingForTheShorterPeriodThenItIsAskedAgain() throws Exception {
    server.failWith("/robots.txt", 503, null);
    RobotsDecision decision = check("/page");
    assertThat(decision.verdict()).isEqualTo(Verdict.UNREACHABLE_DISALLOWED);
    assertThat(decision.permits()).isFalse();
    assertThat(decision.reason()).contains("unreachable").contains("HTTP 503");
    // the fetcher's own retries (3) happened once; nothing more within the hour
    int first = robotsRequests();
    assertThat(first).isEqualTo(4);
    time.advance(Duration.ofMinutes(50));
    assertThat(check("/page").verdict()).isEqualTo(Verdict.UNREACHABLE_DISALLOWED);
    assertThat(robotsRequests()).isEqualTo(first);

    server.reset();
    robots("User-agent: *\nDisallow: /private\n");
    time.advance(Duration.ofMinutes(11));
    assertThat(check("/page").verdict()).isEqualTo(Verdict.ALLOWED);
    assertThat(robotsRequests()).isEqualTo(1);
    assertThat(guard.fetchCount(RobotsGuard.Outcome.UNREACHABLE)).isEqualTo(1);
    assertThat(guard.decisionCount(Verdict.UNREACHABLE_DISALLOWED)).isEqualTo(2);
  }

  @Test
  void tooManyRequestsCountsAsUnreachable() throws Exception {
    server.failWith("/robots.txt", 429, 3_600);
    assertThat(check("/page").verdict()).isEqualTo(Verdict.UNREACHABLE_DISALLOWED);
  }

  @Test
  void anUnreachableHostDisallowsEverything() throws Exception {
    int closed;
    try (var socket = new java.net.ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    RobotsDecision decision =
        guard.check(
            Connector.html, NO_OPTIONS, URI.create("http://127.0.0.1:" + closed + "/page"), null);
    assertThat(decision.verdict()).isEqualTo(Verdict.UNREACHABLE_DISALLOWED);
    assertThat(decision.robotsUrl()).isEqualTo("http://127.0.0.1:" + closed + "/robots.txt");
  }

  @Test
  void redirectsAreFollowedAndTheTargetsRulesApply() throws Exception {
    server.stub(
        get(urlPathEqualTo("/robots.txt"))
            .willReturn(aResponse().withStatus(301).withHeader("Location", "/moved/robots.txt")));
    server.stub(
        get(urlPathEqualTo("/moved/robots.txt"))
            .willReturn(aResponse().withStatus(302).withHeader("Location", "/final.txt")));
    server.serve("/final.txt", "text/plain", "User-agent: *\nDisallow: /secret\n", null);
    assertThat(check("/secret/page").verdict()).isEqualTo(Verdict.DISALLOWED);
    assertThat(check("/open").verdict()).isEqualTo(Verdict.ALLOWED);
    assertThat(server.requests("/final.txt")).hasSize(1);
  }

  @Test
  void moreRedirectsThanAllowedMeanNoRobotsTxt() throws Exception {
    for (int i = 0; i < 7; i++) {
      server.stub(
          get(urlPathEqualTo(i == 0 ? "/robots.txt" : "/r" + i))
              .willReturn(aResponse().withStatus(302).withHeader("Location", "/r" + (i + 1))));
    }
    RobotsDecision decision = check("/page");
    assertThat(decision.verdict()).isEqualTo(Verdict.ALLOWED);
    assertThat(decision.reason()).contains("absent").contains("redirects");
    assertThat(server.requestsMatching("/r[0-9]+")).hasSize(5);
  }

  @Test
  void onlyTheFirstMaxBytesCountAndABodyLargerThanTheFetchCapIsNotAnError() throws Exception {
    // 600 KB, over both the test fetcher's 64 KiB body cap and the 500 KiB robots cap
    StringBuilder body = new StringBuilder("User-agent: *\nDisallow: /early\n");
    while (body.length() < 600_000) {
      body.append("# padding padding padding padding padding padding padding padding\n");
    }
    body.append("Disallow: /late\n");
    robots(body.toString());
    assertThat(check("/early").verdict()).isEqualTo(Verdict.DISALLOWED);
    assertThat(check("/late").verdict()).isEqualTo(Verdict.ALLOWED);
    assertThat(robotsRequests()).isEqualTo(1);
  }

  @Test
  void concurrentChecksOfOneHostMakeOneRobotsRequest() throws Exception {
    server.stub(
        get(urlPathEqualTo("/robots.txt"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "text/plain")
                    .withBody("User-agent: *\nDisallow: /no\n")
                    .withFixedDelay(300)));
    var start = new CountDownLatch(1);
    List<Future<RobotsDecision>> decisions = new ArrayList<>();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (int i = 0; i < 20; i++) {
        String path = i % 2 == 0 ? "/no/" + i : "/yes/" + i;
        decisions.add(
            threads.submit(
                () -> {
                  start.await();
                  return check(path);
                }));
      }
      start.countDown();
      for (int i = 0; i < decisions.size(); i++) {
        assertThat(decisions.get(i).get().verdict())
            .isEqualTo(i % 2 == 0 ? Verdict.DISALLOWED : Verdict.ALLOWED);
      }
    }
    assertThat(robotsRequests()).isEqualTo(1);
  }

  @Test
  void oneRobotsRequestPerOriginWithinTheCachePeriodAndAnotherAfterIt() throws Exception {
    robots("User-agent: *\nDisallow: /no\n");
    for (int hour = 0; hour < 24; hour++) {
      check("/page-" + hour);
      time.advance(Duration.ofMinutes(59));
    }
    assertThat(robotsRequests()).isEqualTo(1);
    time.advance(Duration.ofMinutes(60));
    check("/page");
    assertThat(robotsRequests()).isEqualTo(2);
    // another host name for the same server is another origin
    guard.check(
        Connector.html,
        NO_OPTIONS,
        URI.create("http://127.0.0.1:" + server.port() + "/page"),
        null);
    assertThat(robotsRequests()).isEqualTo(3);
  }

  @Test
  void theCacheKeepsAtMostMaxHostsOrigins() throws Exception {
    guard =
        guard(
            new RobotsSettings(
                Set.of(Connector.html),
                Duration.ofHours(24),
                Duration.ofHours(1),
                512_000,
                3,
                Duration.ofSeconds(60),
                "freshet"));
    List<java.net.ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < 8; i++) {
        var socket = new java.net.ServerSocket(0);
        sockets.add(socket);
        socket.close(); // a closed port: refused at once, kept as unreachable
        guard.check(
            Connector.html,
            NO_OPTIONS,
            URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/"),
            null);
        assertThat(guard.cachedHosts()).isLessThanOrEqualTo(3);
      }
    } finally {
      for (var s : sockets) {
        s.close();
      }
    }
  }

  @Test
  void crawlDelayRaisesTheHostsDelayCappedAndNeverLowersIt() throws Exception {
    robots("User-agent: *\nCrawl-delay: 5\nDisallow: /no\n");
    check("/page");
    assertThat(politeness.minDelayFor("localhost")).isEqualTo(Duration.ofSeconds(5));

    // the next two requests at the host start 5 s apart
    http.get(URI.create(server.url("/robots.txt")), Map.of(), HttpFetcher.Conditional.NONE);
    Instant before = time.instant();
    http.get(URI.create(server.url("/robots.txt")), Map.of(), HttpFetcher.Conditional.NONE);
    assertThat(Duration.between(before, time.instant())).isEqualTo(Duration.ofSeconds(5));

    server.reset();
    robots("User-agent: *\nCrawl-delay: 3600\n");
    time.advance(Duration.ofDays(1));
    check("/page");
    assertThat(politeness.minDelayFor("localhost")).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aCrawlDelayBelowTheConfiguredDelayChangesNothing() throws Exception {
    var slow =
        new HostPoliteness(
            new PolitenessSettings(
                Duration.ofSeconds(10), 4, Duration.ofSeconds(1), Duration.ofMinutes(1)),
            time,
            time.sleeper());
    robots("User-agent: *\nCrawl-delay: 2\n");
    try (var slowHttp =
        new HttpFetcher(
            TestFetchPaths.settings(),
            new SsrfGuard(AddressResolver.SYSTEM, true, false),
            slow,
            time,
            time.sleeper())) {
      new RobotsGuard(RobotsSettings.defaults("freshet"), slowHttp, slow, time)
          .check(Connector.html, NO_OPTIONS, URI.create(server.url("/page")), null);
    }
    assertThat(slow.minDelayFor("localhost")).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void htmlObeysByDefaultFeedsDoNotAndASourceMayWaiveOrAskForIt() throws Exception {
    robots("User-agent: *\nDisallow: /\n");
    URI url = URI.create(server.url("/feed.xml"));

    RobotsDecision feed = guard.check(Connector.feed, NO_OPTIONS, url, null);
    assertThat(feed.verdict()).isEqualTo(Verdict.NOT_APPLIED);
    assertThat(feed.permits()).isTrue();
    assertThat(feed.reason()).contains("feed").contains("freshet.robots.connectors");
    assertThat(robotsRequests()).isZero();

    RobotsDecision waived = guard.check(Connector.html, Map.of("robots", "ignore"), url, null);
    assertThat(waived.verdict()).isEqualTo(Verdict.WAIVED);
    assertThat(waived.permits()).isTrue();
    assertThat(robotsRequests()).isZero();

    assertThat(guard.check(Connector.feed, Map.of("robots", "obey"), url, null).verdict())
        .isEqualTo(Verdict.DISALLOWED);
    assertThat(guard.check(Connector.html, NO_OPTIONS, url, null).verdict())
        .isEqualTo(Verdict.DISALLOWED);
    assertThat(robotsRequests()).isEqualTo(1);

    assertThatThrownBy(() -> guard.check(Connector.html, Map.of("robots", "maybe"), url, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("config.robots must be 'obey' or 'ignore', was 'maybe'");
  }

  @Test
  void connectorsAreConfigurable() throws Exception {
    robots("User-agent: *\nDisallow: /\n");
    guard =
        guard(
            new RobotsSettings(
                Set.of(Connector.feed, Connector.json),
                Duration.ofHours(24),
                Duration.ofHours(1),
                512_000,
                100,
                Duration.ofSeconds(60),
                "freshet"));
    URI url = URI.create(server.url("/x"));
    assertThat(guard.check(Connector.feed, NO_OPTIONS, url, null).verdict())
        .isEqualTo(Verdict.DISALLOWED);
    assertThat(guard.check(Connector.html, NO_OPTIONS, url, null).verdict())
        .isEqualTo(Verdict.NOT_APPLIED);
  }

  @Test
  void aTurnAfterTheLeaseEndsTheFetchAsExpiredAndIsNotKept() throws Exception {
    robots("User-agent: *\nDisallow: /\n");
    var spaced =
        new HostPoliteness(
            new PolitenessSettings(
                Duration.ofSeconds(10), 1, Duration.ofSeconds(1), Duration.ofMinutes(1)),
            time,
            time.sleeper());
    try (var spacedHttp =
        new HttpFetcher(
            TestFetchPaths.settings(),
            new SsrfGuard(AddressResolver.SYSTEM, true, false),
            spaced,
            time,
            time.sleeper())) {
      spacedHttp.get(URI.create(server.url("/warm")), Map.of(), HttpFetcher.Conditional.NONE);
      var spacedGuard =
          new RobotsGuard(RobotsSettings.defaults("freshet"), spacedHttp, spaced, time);
      URI url = URI.create(server.url("/page"));
      assertThatThrownBy(
              () ->
                  spacedGuard.check(Connector.html, NO_OPTIONS, url, time.instant().plusSeconds(5)))
          .isInstanceOfSatisfying(
              FetchFailure.class, f -> assertThat(f.kind()).isEqualTo(ErrorKind.EXPIRED));
      assertThat(robotsRequests()).isZero();
      assertThat(spacedGuard.cachedHosts()).isZero();
      assertThat(spacedGuard.fetchCount(RobotsGuard.Outcome.FAILED)).isEqualTo(1);
    }
  }
}
