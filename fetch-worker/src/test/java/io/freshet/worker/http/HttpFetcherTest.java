package io.freshet.worker.http;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.TestFetchPaths;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The fetch client against a real (loopback) HTTP server; waits are on a fake clock. */
class HttpFetcherTest {

  private static FeedServer server;
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-22T10:00:00Z"));
  private final HttpFetcher http = TestFetchPaths.fetcher(time);

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

  private HttpResult fetch(String path) throws Exception {
    return http.get(URI.create(server.url(path)), Map.of(), HttpFetcher.Conditional.NONE);
  }

  private FetchFailure failure(String path) {
    try {
      fetch(path);
    } catch (FetchFailure f) {
      return f;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("expected a failure for " + path);
  }

  @Test
  void a200ReturnsTheBodyAndValidatorsAndAConditionalRequestGets304() throws Exception {
    server.serve("/feed", "application/rss+xml", "<rss/>", "\"v1\"");
    HttpResult first = fetch("/feed");
    assertThat(first.status()).isEqualTo(200);
    assertThat(new String(first.body(), StandardCharsets.UTF_8)).isEqualTo("<rss/>");
    // Jetty (behind WireMock) gzips the answer and marks the ETag so: "v1--gzip".
    assertThat(first.etag()).startsWith("\"v1");
    assertThat(first.attempts()).isEqualTo(1);

    HttpResult second =
        http.get(
            URI.create(server.url("/feed")), Map.of(), new HttpFetcher.Conditional("\"v1\"", null));
    assertThat(second.notModified()).isTrue();
    assertThat(server.requests("/feed").get(1).getHeader("If-None-Match")).isEqualTo("\"v1\"");
    assertThat(server.requests("/feed").get(0).getHeader("User-Agent")).isEqualTo("Freshet-test");
  }

  @Test
  void aBodyReadInTimeLeavesNoDeadlineQueuedAndA304NeverArmsOne() throws Exception {
    server.serve("/feed", "application/rss+xml", "<rss>" + "x".repeat(50_000) + "</rss>", "\"v1\"");
    for (int i = 0; i < 5; i++) {
      assertThat(fetch("/feed").body()).hasSize(50_011);
      HttpResult notModified =
          http.get(
              URI.create(server.url("/feed")),
              Map.of(),
              new HttpFetcher.Conditional("\"v1\"", null));
      assertThat(notModified.notModified()).isTrue();
      assertThat(notModified.body()).isEmpty();
    }
    // a cancelled deadline left queued would hold its response stream for the total timeout
    assertThat(http.pendingDeadlines()).isZero();
  }

  @Test
  void a500IsRetriedAfterOneThenTwoSecondsAndThe200Returned() throws Exception {
    String s = "flaky";
    server.stub(
        get(urlPathEqualTo("/flaky"))
            .inScenario(s)
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(aResponse().withStatus(500))
            .willSetStateTo("second"));
    server.stub(
        get(urlPathEqualTo("/flaky"))
            .inScenario(s)
            .whenScenarioStateIs("second")
            .willReturn(aResponse().withStatus(502))
            .willSetStateTo("third"));
    server.stub(
        get(urlPathEqualTo("/flaky"))
            .inScenario(s)
            .whenScenarioStateIs("third")
            .willReturn(aResponse().withStatus(200).withBody("ok")));
    HttpResult result = fetch("/flaky");
    assertThat(result.status()).isEqualTo(200);
    assertThat(result.attempts()).isEqualTo(3);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    assertThat(http.retryCount()).isEqualTo(2);
  }

  @Test
  void aLasting503IsTriedFourTimesThenReturnedWithItsStatus() throws Exception {
    server.failWith("/down", 503, null);
    HttpResult result = fetch("/down");
    assertThat(result.status()).isEqualTo(503);
    assertThat(result.attempts()).isEqualTo(4);
    assertThat(server.requests("/down")).hasSize(4);
    // 1, 2, 4 s of backoff; the host-wide cool-downs after each 503 add to the politeness waits.
    assertThat(time.sleeps()).contains(Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  @Test
  void a429RetryAfterIsHonouredAndReported() throws Exception {
    server.stub(
        get(urlPathEqualTo("/limited"))
            .inScenario("429")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(aResponse().withStatus(429).withHeader("Retry-After", "7"))
            .willSetStateTo("ok"));
    server.stub(
        get(urlPathEqualTo("/limited"))
            .inScenario("429")
            .whenScenarioStateIs("ok")
            .willReturn(aResponse().withStatus(200).withBody("fine")));
    Instant start = time.instant();
    HttpResult result = fetch("/limited");
    assertThat(result.status()).isEqualTo(200);
    assertThat(Duration.between(start, time.instant()))
        .isGreaterThanOrEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void aRetryAfterLongerThanTheWaitCapEndsTheFetchAndIsReported() throws Exception {
    server.failWith("/later", 429, 3600);
    HttpResult result = fetch("/later");
    assertThat(result.status()).isEqualTo(429);
    assertThat(result.attempts()).isEqualTo(1);
    assertThat(result.retryAfter()).isEqualTo(Instant.parse("2026-11-22T11:00:00Z"));
  }

  @Test
  void whileTheHostCoolsDownLongerThanAFetchWaitsOtherRequestsToItAreNotSent() throws Exception {
    server.failWith("/later", 429, 3600);
    fetch("/later");
    server.serve("/other", "text/plain", "x", null);
    FetchFailure f = failure("/other");
    assertThat(f.kind()).isEqualTo(ErrorKind.HOST_COOLING_DOWN);
    // The host-wide pause is capped (cool-down-max, 1 min here); the answered 429 reported 11:00.
    assertThat(f.retryAfter()).isEqualTo(Instant.parse("2026-11-22T10:01:00Z"));
    assertThat(server.requests("/other")).isEmpty();
  }

  @Test
  void redirectsAreFollowedAndAnsweredFromTheFinalUrl() throws Exception {
    server.stub(
        get(urlPathEqualTo("/old"))
            .willReturn(aResponse().withStatus(301).withHeader("Location", "/new")));
    server.serve("/new", "text/plain", "moved", null);
    HttpResult result = fetch("/old");
    assertThat(result.status()).isEqualTo(200);
    assertThat(result.finalUri().getPath()).isEqualTo("/new");
  }

  @Test
  void credentialsFollowARedirectOnlyWithinTheSourcesOrigin() throws Exception {
    server.stub(
        get(urlPathEqualTo("/keyed"))
            .willReturn(aResponse().withStatus(302).withHeader("Location", "/keyed-here")));
    server.serve("/keyed-here", "text/plain", "ok", null);
    // the same server under another host name: another origin
    String otherHost =
        URI.create(server.url("/")).getHost().equals("localhost") ? "127.0.0.1" : "localhost";
    server.stub(
        get(urlPathEqualTo("/keyed-away"))
            .willReturn(
                aResponse()
                    .withStatus(302)
                    .withHeader(
                        "Location", "http://" + otherHost + ":" + server.port() + "/elsewhere")));
    server.serve("/elsewhere", "text/plain", "ok", null);
    Map<String, String> key = Map.of("X-Api-Key", "s3cret");

    http.get(URI.create(server.url("/keyed")), key, HttpFetcher.Conditional.NONE);
    http.get(URI.create(server.url("/keyed-away")), key, HttpFetcher.Conditional.NONE);

    assertThat(server.requests("/keyed-here").getFirst().getHeader("X-Api-Key"))
        .isEqualTo("s3cret");
    assertThat(server.requests("/keyed-away").getFirst().getHeader("X-Api-Key"))
        .isEqualTo("s3cret");
    assertThat(server.requests("/elsewhere").getFirst().containsHeader("X-Api-Key")).isFalse();
  }

  @Test
  void onlyAChainOfPermanentRedirectsReportsAMove() throws Exception {
    server.stub(
        get(urlPathEqualTo("/p1"))
            .willReturn(aResponse().withStatus(301).withHeader("Location", "/p2")));
    server.stub(
        get(urlPathEqualTo("/p2"))
            .willReturn(aResponse().withStatus(308).withHeader("Location", "/moved")));
    server.stub(
        get(urlPathEqualTo("/t1"))
            .willReturn(aResponse().withStatus(301).withHeader("Location", "/t2")));
    server.stub(
        get(urlPathEqualTo("/t2"))
            .willReturn(aResponse().withStatus(302).withHeader("Location", "/moved")));
    server.stub(
        get(urlPathEqualTo("/t3"))
            .willReturn(aResponse().withStatus(307).withHeader("Location", "/moved")));
    server.serve("/moved", "text/plain", "here", null);

    assertThat(fetch("/p1").movedTo()).isEqualTo(URI.create(server.url("/moved")));
    assertThat(fetch("/t1").movedTo()).as("a 302 among the hops").isNull();
    assertThat(fetch("/t3").movedTo()).as("a 307").isNull();
    assertThat(fetch("/moved").movedTo()).as("no redirect").isNull();
  }

  @Test
  void cachingAndLinkHeadersAreReadAsHints() throws Exception {
    server.stub(
        get(urlPathEqualTo("/cached"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Cache-Control", "public, max-age=3600")
                    .withHeader(
                        "Link",
                        "<https://hub.example/>; rel=\"hub\", <https://example.org/feed>; rel=self")
                    .withBody("x")));
    server.stub(
        get(urlPathEqualTo("/nocache"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Cache-Control", "no-cache, max-age=3600")
                    .withBody("x")));
    HttpResult cached = fetch("/cached");
    assertThat(cached.maxAge()).isEqualTo(java.time.Duration.ofHours(1));
    assertThat(cached.hubLink()).isEqualTo("https://hub.example/");
    assertThat(cached.selfLink()).isEqualTo("https://example.org/feed");
    assertThat(fetch("/nocache").maxAge()).isNull();
  }

  @Test
  void aRedirectLoopAndTooManyRedirectsFailClearly() {
    server.stub(
        get(urlPathEqualTo("/a"))
            .willReturn(aResponse().withStatus(302).withHeader("Location", "/b")));
    server.stub(
        get(urlPathEqualTo("/b"))
            .willReturn(aResponse().withStatus(302).withHeader("Location", "/a")));
    FetchFailure loop = failure("/a");
    assertThat(loop.kind()).isEqualTo(ErrorKind.TOO_MANY_REDIRECTS);
    assertThat(loop.getMessage()).contains("redirect loop");

    for (int i = 0; i < 7; i++) {
      server.stub(
          get(urlPathEqualTo("/r" + i))
              .willReturn(aResponse().withStatus(302).withHeader("Location", "/r" + (i + 1))));
    }
    FetchFailure many = failure("/r0");
    assertThat(many.kind()).isEqualTo(ErrorKind.TOO_MANY_REDIRECTS);
    assertThat(many.getMessage()).contains("more than 5 redirects");
  }

  @Test
  void aRedirectToAPrivateOrMetadataAddressIsRefusedBeforeAnyRequestIsMadeThere() {
    server.stub(
        get(urlPathEqualTo("/innocent"))
            .willReturn(
                aResponse()
                    .withStatus(302)
                    .withHeader("Location", "http://169.254.169.254/latest/meta-data/")));
    FetchFailure f = failure("/innocent");
    assertThat(f.kind()).isEqualTo(ErrorKind.REFUSED_ADDRESS);
    assertThat(f.getMessage()).contains("169.254.169.254").contains("link-local");

    server.stub(
        get(urlPathEqualTo("/inward"))
            .willReturn(
                aResponse().withStatus(307).withHeader("Location", "http://10.0.0.7/admin")));
    assertThat(failure("/inward").getMessage()).contains("10.0.0.7").contains("private");
  }

  @Test
  void anOversizedBodyIsRefusedOnTheWireAndOnceDecompressed() {
    byte[] noise = new byte[150 * 1024];
    new java.util.Random(1).nextBytes(noise);
    server.serve("/big", "text/plain", java.util.Base64.getEncoder().encodeToString(noise), null);
    FetchFailure f = failure("/big");
    assertThat(f.kind()).isEqualTo(ErrorKind.TOO_LARGE);
    assertThat(f.getMessage()).contains("exceeds 65536 bytes");

    server.serve("/long", "text/plain", "x".repeat(300 * 1024), null); // compresses to ~1 KB
    assertThat(failure("/long").kind()).isEqualTo(ErrorKind.TOO_LARGE);
  }

  @Test
  void gzipIsUndoneAndAGzipBombStopsAtTheDecompressionCap() throws Exception {
    server.stub(
        get(urlPathEqualTo("/small.gz"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Encoding", "gzip")
                    .withBody(gzip("hello ".repeat(1000)))));
    HttpResult ok = fetch("/small.gz");
    assertThat(new String(ok.body(), StandardCharsets.UTF_8)).startsWith("hello hello");
    assertThat(ok.bytes()).isEqualTo(6000);

    byte[] bomb = gzip("0".repeat(50 * 1024 * 1024)); // 50 MB of zeros, ~50 KB compressed
    assertThat(bomb.length).isLessThan(64 * 1024);
    server.stub(
        get(urlPathEqualTo("/bomb"))
            .willReturn(
                aResponse().withStatus(200).withHeader("Content-Encoding", "gzip").withBody(bomb)));
    FetchFailure f = failure("/bomb");
    assertThat(f.kind()).isEqualTo(ErrorKind.TOO_LARGE);
    assertThat(f.getMessage()).contains("decompressed body exceeds");
  }

  @Test
  void aPrefixReadKeepsTheFirstBytesOfAPlainOrCompressedBodyAndIgnoresTheRest() throws Exception {
    // larger than the 256 KiB decompression cap (Jetty gzips it): no error when a prefix counts
    String big = "a".repeat(100) + "b".repeat(300_000);
    server.serve("/big.txt", "text/plain", big, null);
    HttpResult plain = http.getPrefix(URI.create(server.url("/big.txt")), null, 150);
    assertThat(new String(plain.body(), StandardCharsets.US_ASCII))
        .isEqualTo("a".repeat(100) + "b".repeat(50));
    assertThat(plain.bytes()).isEqualTo(150);

    byte[] bomb = gzip("0".repeat(50 * 1024 * 1024));
    server.stub(
        get(urlPathEqualTo("/bomb.txt"))
            .willReturn(
                aResponse().withStatus(200).withHeader("Content-Encoding", "gzip").withBody(bomb)));
    HttpResult inflated = http.getPrefix(URI.create(server.url("/bomb.txt")), null, 1000);
    assertThat(inflated.body()).hasSize(1000);
    // the ordinary read of the same URL still fails at the cap
    assertThat(failure("/big.txt").kind()).isEqualTo(ErrorKind.TOO_LARGE);
  }

  @Test
  void aPrefixIsReadWithoutReadingFurther() throws Exception {
    var in = new java.io.ByteArrayInputStream(new byte[1_000_000]);
    assertThat(BodyDecoder.readPrefix(in, 20_000)).hasSize(20_000);
    assertThat(in.available()).isEqualTo(980_000);
    assertThat(BodyDecoder.decodePrefix(new byte[500], null, 100)).hasSize(100);
    assertThat(BodyDecoder.decodePrefix(new byte[50], "identity", 100)).hasSize(50);
  }

  @Test
  void aResponseSlowerThanTheTotalTimeoutFailsAsTimeout() {
    server.stub(
        get(urlPathEqualTo("/slow"))
            .willReturn(aResponse().withStatus(200).withBody("late").withFixedDelay(5_000)));
    FetchFailure f = failure("/slow");
    assertThat(f.kind()).isEqualTo(ErrorKind.TIMEOUT);
  }

  @Test
  void theTotalTimeoutRunsFromTheRequestNotFromTheWaitForTheHostsTurn() throws Exception {
    // A body that takes 250 ms to arrive, well within the 2 s total timeout...
    server.stub(
        get(urlPathEqualTo("/dribble"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("x".repeat(500))
                    .withChunkedDribbleDelay(5, 250)));
    var settings =
        new HttpSettings(
            Duration.ofSeconds(2),
            Duration.ofSeconds(2),
            0,
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            64 * 1024,
            256 * 1024,
            5,
            "Freshet-test");
    // ... asked for twice from a host whose turns are 3 s apart, on the real clock.
    var politeness =
        new io.freshet.worker.politeness.HostPoliteness(
            new io.freshet.worker.politeness.PolitenessSettings(
                Duration.ofSeconds(3), 2, Duration.ofSeconds(1), Duration.ofMinutes(1)),
            java.time.Clock.systemUTC(),
            Sleeper.SYSTEM);
    try (var real =
        new HttpFetcher(
            settings,
            new SsrfGuard(AddressResolver.SYSTEM, true, false),
            politeness,
            java.time.Clock.systemUTC(),
            Sleeper.SYSTEM)) {
      URI url = URI.create(server.url("/dribble"));
      assertThat(real.get(url, Map.of(), HttpFetcher.Conditional.NONE).status()).isEqualTo(200);
      long before = System.nanoTime();
      HttpResult second = real.get(url, Map.of(), HttpFetcher.Conditional.NONE);
      assertThat(Duration.ofNanos(System.nanoTime() - before))
          .isGreaterThan(Duration.ofMillis(2_000)); // it did wait longer than the timeout
      assertThat(second.status()).isEqualTo(200);
      assertThat(second.body()).hasSize(500);
    }
  }

  @Test
  void aClosedPortFailsAsConnect() {
    FetchFailure f;
    try {
      http.get(URI.create("http://127.0.0.1:1/feed"), Map.of(), HttpFetcher.Conditional.NONE);
      throw new AssertionError("expected failure");
    } catch (FetchFailure e) {
      f = e;
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    assertThat(f.kind()).isIn(ErrorKind.CONNECT, ErrorKind.TIMEOUT);
    assertThatThrownBy(
            () -> http.get(URI.create("ftp://127.0.0.1/x"), Map.of(), HttpFetcher.Conditional.NONE))
        .isInstanceOf(FetchFailure.class);
  }

  private static byte[] gzip(String s) throws Exception {
    var out = new ByteArrayOutputStream();
    try (var gz = new GZIPOutputStream(out)) {
      gz.write(s.getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }
}
