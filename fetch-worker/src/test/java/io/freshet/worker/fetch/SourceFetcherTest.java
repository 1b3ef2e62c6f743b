package io.freshet.worker.fetch;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.ItemDigest;
import io.freshet.schemas.avro.ItemNovelty;
import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.signal.RuleSignalClassifier;
import io.freshet.worker.signal.SignalRules;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.Requests;
import io.freshet.worker.testing.TestFetchPaths;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One request through the whole fetch path, against a real loopback HTTP server. */
class SourceFetcherTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static final String KEY = Base64.getEncoder().encodeToString(new byte[32]);
  private static FeedServer server;

  private final FakeTime time = new FakeTime(NOW);
  private final io.freshet.worker.http.HttpFetcher http = TestFetchPaths.fetcher(time);
  private final SourceFetcher fetcher =
      new SourceFetcher(
          FetchPath.connectors(),
          http,
          new RuleSignalClassifier(new SignalRules(List.of("meetup"), List.of(), List.of())),
          new CredentialsOpener(CredentialCipher.fromBase64Key(KEY)),
          new ConnectorOptions(50, Duration.ofDays(30), Duration.ofDays(60), false),
          1_000,
          TestFetchPaths.parsing(),
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

  private FetchResult fetch(FetchRequested request) throws InterruptedException {
    return fetcher.fetch(request, false);
  }

  private static List<ItemNovelty> novelties(FetchResult r) {
    return r.completed().getItems().stream().map(ItemDigest::getNovelty).toList();
  }

  @Test
  void aFirstFetchEmitsEveryItemThenTheCompletionWithTheNewCursor() throws Exception {
    server.serve("/feed", "application/rss+xml", Requests.rss("a", "b", "c"), null);
    FetchResult result = fetch(Requests.feed(server.url("/feed"), NOW).build());
    assertThat(result.content())
        .extracting(ContentFetched::getItemId)
        .containsExactly("a", "b", "c");
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(result.completed().getHttpStatus()).isEqualTo(200);
    assertThat(result.completed().getItemCount()).isEqualTo(3);
    assertThat(result.completed().getCursor()).containsKey("seen");
    assertThat(novelties(result)).containsOnly(ItemNovelty.added);
    ContentFetched first = result.content().get(0);
    assertThat(first.getTitle()).isEqualTo("Item a");
    assertThat(first.getUrl()).isEqualTo("https://feed.example/a");
    assertThat(first.getContentHash()).hasSize(64);
    assertThat(first.getFetchedAt()).isEqualTo(NOW);
  }

  @Test
  void theServersHintsAMoveAndTheFeedsOwnUrlsReachTheCompletion() throws Exception {
    String feed =
        """
        <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"
             xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>
          <title>t</title><ttl>120</ttl>
          <sy:updatePeriod>daily</sy:updatePeriod><sy:updateFrequency>4</sy:updateFrequency>
          <skipHours><hour>2</hour><hour>1</hour></skipHours><skipDays><day>Sunday</day></skipDays>
          <atom:link rel="self" href="https://feeds.example.org/canonical"/>
          <atom:link rel="hub" href="https://hub.example/"/>
          <item><guid>a</guid><title>A</title></item>
        </channel></rss>
        """;
    server.stub(
        com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo("/old"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(301)
                    .withHeader("Location", "/feed")));
    server.stub(
        com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo("/feed"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/rss+xml")
                    .withHeader("Cache-Control", "max-age=1800")
                    .withBody(feed)));

    FetchCompleted done = fetch(Requests.feed(server.url("/old"), NOW).build()).completed();

    assertThat(done.getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(done.getMovedTo()).isEqualTo(server.url("/feed"));
    assertThat(done.getSelfUrl()).isEqualTo("https://feeds.example.org/canonical");
    assertThat(done.getHubUrl()).isEqualTo("https://hub.example/");
    assertThat(done.getHints().getMaxAgeSeconds()).isEqualTo(1800L);
    assertThat(done.getHints().getTtlMinutes()).isEqualTo(120);
    assertThat(done.getHints().getUpdatePeriodSeconds()).isEqualTo(6 * 3600L);
    assertThat(done.getHints().getSkipHours()).containsExactly(1, 2);
    assertThat(done.getHints().getSkipDays()).containsExactly(7);

    // The same feed fetched at its own URL: no move, and a self link equal to it is not reported.
    FetchCompleted direct = fetch(Requests.feed(server.url("/feed"), NOW).build()).completed();
    assertThat(direct.getMovedTo()).isNull();
  }

  @Test
  void anUnchangedFeedEmitsNothingAndOneNewItemEmitsExactlyOne() throws Exception {
    server.serve("/feed", "application/rss+xml", Requests.rss("a", "b", "c"), null);
    FetchResult first = fetch(Requests.feed(server.url("/feed"), NOW).build());

    FetchResult again =
        fetch(
            Requests.feed(server.url("/feed"), NOW)
                .setCursor(first.completed().getCursor())
                .build());
    assertThat(again.content()).isEmpty();
    assertThat(again.completed().getItemCount()).isZero();
    assertThat(novelties(again))
        .containsExactly(ItemNovelty.seen, ItemNovelty.seen, ItemNovelty.seen);

    // The feed gains "d" and reorders; "b"'s text changes.
    server.serve("/feed", "application/rss+xml", Requests.rss("d", "c", "b=New text", "a"), null);
    FetchResult third =
        fetch(
            Requests.feed(server.url("/feed"), NOW)
                .setCursor(again.completed().getCursor())
                .build());
    assertThat(third.content()).extracting(ContentFetched::getItemId).containsExactly("d", "b");
    assertThat(novelties(third))
        .containsExactly(
            ItemNovelty.added, ItemNovelty.seen, ItemNovelty.changed, ItemNovelty.seen);
  }

  @Test
  void emitAllSendsEveryItemEveryTime() throws Exception {
    server.serve("/feed", "application/rss+xml", Requests.rss("a", "b"), null);
    FetchRequested request =
        Requests.feed(server.url("/feed"), NOW).setConfig(Map.of("emit", "all")).build();
    FetchResult first = fetch(request);
    FetchRequested again =
        FetchRequested.newBuilder(request).setCursor(first.completed().getCursor()).build();
    assertThat(fetch(again).content()).hasSize(2);
  }

  @Test
  void aConditionalFetchOfAnUnchangedFeedIsNotModifiedWithoutACursor() throws Exception {
    server.serve("/feed", "application/rss+xml", Requests.rss("a"), "\"e1\"");
    FetchResult result =
        fetch(Requests.feed(server.url("/feed"), NOW).setCursor(Map.of("etag", "\"e1\"")).build());
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.not_modified);
    assertThat(result.completed().getHttpStatus()).isEqualTo(304);
    assertThat(result.completed().getCursor()).isNull();
    assertThat(result.content()).isEmpty();
  }

  @Test
  void anItemLimitAndTimeWindowApply() throws Exception {
    String old =
        Requests.rss("a", "b", "c")
            .replace("<item><title>Item c", "<item><title>Item c")
            .replaceFirst(
                "(?s)(Item c.*?)<pubDate>[^<]+</pubDate>",
                "$1<pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate>");
    server.serve("/feed", "application/rss+xml", old, null);
    FetchResult windowed = fetch(Requests.feed(server.url("/feed"), NOW).build());
    assertThat(windowed.content()).extracting(ContentFetched::getItemId).containsExactly("a", "b");
    FetchResult limited =
        fetch(Requests.feed(server.url("/feed"), NOW).setConfig(Map.of("item_limit", "1")).build());
    assertThat(limited.content()).extracting(ContentFetched::getItemId).containsExactly("a");
    FetchResult all =
        fetcher.fetch(
            Requests.feed(server.url("/feed"), NOW).setConfig(Map.of("item_limit", "1")).build(),
            true);
    assertThat(all.content()).hasSize(3);
  }

  @Test
  void anExpiredRequestIsNotFetched() throws Exception {
    server.serve("/feed", "application/rss+xml", Requests.rss("a"), null);
    FetchResult result =
        fetch(Requests.feed(server.url("/feed"), NOW).setNotAfter(NOW.minusSeconds(1)).build());
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.expired);
    assertThat(result.completed().getAttempts()).isZero();
    assertThat(result.completed().getCursor()).isNull();
    assertThat(server.requests("/feed")).isEmpty();
  }

  @Test
  void aRequestWhoseTurnAtItsHostComesAfterItsNotAfterIsExpiredWithoutARequest() throws Exception {
    server.serve("/feed", "application/rss+xml", Requests.rss("a"), null);
    var politeHttp =
        TestFetchPaths.fetcher(
            time,
            TestFetchPaths.settings(),
            new io.freshet.worker.politeness.PolitenessSettings(
                Duration.ofSeconds(10), 2, Duration.ofSeconds(1), Duration.ofMinutes(1)));
    var politeFetcher =
        new SourceFetcher(
            FetchPath.connectors(),
            politeHttp,
            new RuleSignalClassifier(new SignalRules(List.of(), List.of(), List.of())),
            new CredentialsOpener(CredentialCipher.fromBase64Key(KEY)),
            new ConnectorOptions(50, Duration.ofDays(30), Duration.ofDays(60), false),
            1_000,
            TestFetchPaths.parsing(),
            time);
    try (politeHttp) {
      FetchResult first =
          politeFetcher.fetch(
              Requests.feed(server.url("/feed"), NOW).setNotAfter(NOW.plusSeconds(60)).build(),
              false);
      assertThat(first.completed().getStatus()).isEqualTo(FetchStatus.ok);
      // The host's next turn is at NOW + 10 s; this lease ends at NOW + 5 s.
      FetchResult late =
          politeFetcher.fetch(
              Requests.feed(server.url("/feed"), NOW).setNotAfter(NOW.plusSeconds(5)).build(),
              false);
      assertThat(late.completed().getStatus()).isEqualTo(FetchStatus.expired);
      assertThat(late.completed().getAttempts()).isZero();
      assertThat(late.completed().getErrorKind()).isNull();
      assertThat(late.completed().getErrorMessage()).contains("not_after");
      assertThat(late.completed().getCursor()).isNull();
      assertThat(late.content()).isEmpty();
      assertThat(time.instant()).isEqualTo(NOW); // not waited for
      assertThat(server.requests("/feed")).hasSize(1);
    }
  }

  @Test
  void httpFailuresEndAsFailedWithKindStatusAndNoCursor() throws Exception {
    server.failWith("/gone", 410, null);
    FetchResult gone = fetch(Requests.feed(server.url("/gone"), NOW).build());
    assertThat(gone.completed().getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(gone.completed().getHttpStatus()).isEqualTo(410);
    assertThat(gone.completed().getErrorKind()).isEqualTo("http_4xx");
    assertThat(gone.completed().getCursor()).isNull();

    server.serve("/broken", "application/rss+xml", "<rss><channel><item>", null);
    FetchResult broken = fetch(Requests.feed(server.url("/broken"), NOW).build());
    assertThat(broken.completed().getErrorKind()).isEqualTo("parse");
    assertThat(broken.completed().getHttpStatus()).isEqualTo(200);

    // Last: a 429 cools the whole host down.
    server.failWith("/limited", 429, 3600);
    FetchResult limited = fetch(Requests.feed(server.url("/limited"), NOW).build());
    assertThat(limited.completed().getErrorKind()).isEqualTo("http_4xx");
    assertThat(limited.completed().getRetryAfter()).isEqualTo(NOW.plusSeconds(3600));
  }

  @Test
  void badConfigAndUnsupportedConnectorsFailTheFetchAnUnknownConnectorIsUnusable()
      throws Exception {
    FetchResult bad =
        fetch(Requests.feed(server.url("/x"), NOW).setConfig(Map.of("item_limit", "-3")).build());
    assertThat(bad.completed().getErrorKind()).isEqualTo("config");
    assertThat(bad.completed().getErrorMessage()).contains("item_limit");
    assertThatThrownBy(
            () -> fetch(Requests.request(Connector.unknown, server.url("/x"), NOW).build()))
        .isInstanceOf(UnusableRequestException.class);
  }

  @Test
  void credentialsAreSentAsHeaderAndParameterButAppearInNoEvent() throws Exception {
    server.serve("/private", "application/rss+xml", Requests.rss("a"), null);
    byte[] sealed =
        CredentialCipher.fromBase64Key(KEY)
            .encrypt("{\"bearer\": \"s3cret-token\", \"query\": {\"key\": \"s3cret-key\"}}");
    FetchResult result =
        fetch(
            Requests.feed(server.url("/private"), NOW)
                .setCredentialsEncrypted(ByteBuffer.wrap(sealed))
                .build());
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    var request = server.requests("/private").get(0);
    assertThat(request.getHeader("Authorization")).isEqualTo("Bearer s3cret-token");
    assertThat(request.queryParameter("key").firstValue()).isEqualTo("s3cret-key");
    assertThat(result.completed().toString() + result.content()).doesNotContain("s3cret");

    server.failWith("/private-down", 500, null);
    FetchResult failed =
        fetch(
            Requests.feed(server.url("/private-down"), NOW)
                .setCredentialsEncrypted(ByteBuffer.wrap(sealed))
                .build());
    assertThat(failed.completed().toString()).doesNotContain("s3cret");

    FetchResult wrongKey =
        fetch(
            Requests.feed(server.url("/private"), NOW)
                .setCredentialsEncrypted(
                    ByteBuffer.wrap(
                        CredentialCipher.fromBase64Key(
                                Base64.getEncoder()
                                    .encodeToString(
                                        new byte[] {
                                          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                          1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
                                        }))
                            .encrypt("{\"bearer\": \"x\"}")))
                .build());
    assertThat(wrongKey.completed().getErrorKind()).isEqualTo("credentials");
  }

  @Test
  void signalsAndBodyCapReachTheEvents() throws Exception {
    server.serve(
        "/feed",
        "application/rss+xml",
        Requests.rss("m=Come to the meetup", "long=" + "x".repeat(2_000)),
        null);
    FetchResult result = fetch(Requests.feed(server.url("/feed"), NOW).build());
    assertThat(result.content().get(0).getSignalType().name()).isEqualTo("event");
    assertThat(result.content().get(1).getTruncated()).isTrue();
    assertThat(result.content().get(1).getBody()).hasSize(1_000);
  }

  @Test
  void aServerErrorIsRetriedThenSucceeds() throws Exception {
    server.stub(
        get(urlPathEqualTo("/flaky"))
            .inScenario("f")
            .whenScenarioStateIs(com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED)
            .willReturn(aResponse().withStatus(500))
            .willSetStateTo("ok"));
    server.stub(
        get(urlPathEqualTo("/flaky"))
            .inScenario("f")
            .whenScenarioStateIs("ok")
            .willReturn(aResponse().withStatus(200).withBody(Requests.rss("a"))));
    FetchResult result = fetch(Requests.feed(server.url("/flaky"), NOW).build());
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(result.completed().getAttempts()).isEqualTo(2);
  }
}
