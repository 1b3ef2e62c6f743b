package io.freshet.worker.connector;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.connector.json.JsonApiConnector;
import io.freshet.worker.fetch.CredentialsOpener;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.signal.RuleSignalClassifier;
import io.freshet.worker.signal.SignalRules;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.Requests;
import io.freshet.worker.testing.TestFetchPaths;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The JSON API connector's mapping and cursor modes against a loopback server. */
class JsonApiConnectorTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static FeedServer server;
  private final FakeTime time = new FakeTime(NOW);
  private final HttpFetcher http = TestFetchPaths.fetcher(time);
  private final SourceFetcher fetcher =
      new SourceFetcher(
          List.of(new JsonApiConnector()),
          http,
          new RuleSignalClassifier(new SignalRules(List.of(), List.of(), List.of())),
          new CredentialsOpener(null),
          new ConnectorOptions(50, Duration.ofDays(2), Duration.ofDays(7), false),
          10_000,
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

  private FetchResult fetch(Map<String, String> config, Map<String, String> cursor)
      throws Exception {
    return fetcher.fetch(
        Requests.request(Connector.json, server.url("/api"), NOW)
            .setConfig(config)
            .setCursor(cursor)
            .build(),
        false);
  }

  private static void answer(String body) {
    server.stub(get(urlPathEqualTo("/api")).willReturn(aResponse().withStatus(200).withBody(body)));
  }

  @Test
  void sinceModeSendsTheWindowStartThenTheNewestTimeReadSlackStyle() throws Exception {
    answer(
        """
        {"ok": true, "messages": [
          {"ts": "1795341600.000200", "text": "Deploy done", "user": "U1"},
          {"ts": "1795338000.000100", "text": "Deploy started", "user": "U1"}]}
        """);
    Map<String, String> config =
        Map.of(
            "cursor_mode",
            "since",
            "since_param",
            "oldest",
            "since_format",
            "epoch_seconds",
            "items_pointer",
            "/messages",
            "id_pointer",
            "/ts",
            "body_pointer",
            "/text",
            "title_pointer",
            "/text",
            "published_pointer",
            "/ts");
    FetchResult first = fetch(config, Map.of());
    assertThat(first.content())
        .extracting(ContentFetched::getTitle)
        .containsExactly("Deploy done", "Deploy started");
    long windowStart = NOW.minus(Duration.ofDays(2)).getEpochSecond();
    assertThat(server.requests("/api").get(0).queryParameter("oldest").firstValue())
        .isEqualTo(Long.toString(windowStart));
    assertThat(first.completed().getCursor()).containsEntry("since", "2026-11-22T10:00:00Z");

    fetch(config, first.completed().getCursor());
    assertThat(server.requests("/api").get(1).queryParameter("oldest").firstValue())
        .isEqualTo("1795341600");
  }

  @Test
  void syncTokenModeSendsTheTokenAndAfter410ReadsTheFullWindowGoogleCalendarStyle()
      throws Exception {
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("syncToken", equalTo("old-token"))
            .willReturn(aResponse().withStatus(410).withBody("{\"error\": \"token expired\"}")));
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("syncToken", absent())
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody(
                        """
                        {"items": [{"id": "e1", "summary": "Standup",
                                    "start": {"dateTime": "2026-11-23T09:00:00Z"}}],
                         "nextSyncToken": "new-token"}
                        """)));
    Map<String, String> config =
        Map.of(
            "cursor_mode",
            "sync_token",
            "sync_token_param",
            "syncToken",
            "sync_token_pointer",
            "/nextSyncToken",
            "title_pointer",
            "/summary",
            "event_pointer",
            "/start/dateTime");
    FetchResult result = fetch(config, Map.of("sync_token", "old-token"));
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    assertThat(result.completed().getAttempts()).isEqualTo(2);
    assertThat(result.completed().getCursor()).containsEntry("sync_token", "new-token");
    assertThat(result.content())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.getEventAt()).isEqualTo(Instant.parse("2026-11-23T09:00:00Z"));
              assertThat(e.getSignalType().name()).isEqualTo("event");
            });
  }

  @Test
  void nextPageCursorsAreFollowedWithinOneFetchAndALaterFailedPageMakesItPartial()
      throws Exception {
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("cursor", absent())
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("{\"results\": [{\"id\": \"p1\"}], \"next\": \"c2\"}")));
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("cursor", equalTo("c2"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("{\"results\": [{\"id\": \"p2\"}], \"next\": \"c3\"}")));
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("cursor", equalTo("c3"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("{\"results\": [{\"id\": \"p3\"}], \"next\": null}")));
    Map<String, String> config =
        Map.of("items_pointer", "/results", "next_page_pointer", "/next", "page_param", "cursor");
    FetchResult all = fetch(config, Map.of());
    assertThat(all.content())
        .extracting(ContentFetched::getItemId)
        .containsExactly("p1", "p2", "p3");

    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("cursor", equalTo("c3"))
            .willReturn(aResponse().withStatus(404)));
    FetchResult partial = fetch(config, Map.of());
    assertThat(partial.completed().getStatus()).isEqualTo(FetchStatus.partial);
    assertThat(partial.completed().getErrorMessage()).contains("page 3");
    assertThat(partial.content()).extracting(ContentFetched::getItemId).containsExactly("p1", "p2");
  }

  @Test
  void aNextPageCursorThatCyclesEndsPaginationAsPartialAndMaxPagesIsValidated() throws Exception {
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("cursor", absent())
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("{\"results\": [{\"id\": \"p1\"}], \"next\": \"a\"}")));
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("cursor", equalTo("a"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("{\"results\": [{\"id\": \"p2\"}], \"next\": \"b\"}")));
    server.stub(
        get(urlPathEqualTo("/api"))
            .withQueryParam("cursor", equalTo("b"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody("{\"results\": [{\"id\": \"p3\"}], \"next\": \"a\"}")));
    Map<String, String> config =
        Map.of("items_pointer", "/results", "next_page_pointer", "/next", "max_pages", "50");

    FetchResult cycled = fetch(config, Map.of());

    assertThat(cycled.completed().getStatus()).isEqualTo(FetchStatus.partial);
    assertThat(cycled.completed().getErrorKind()).isEqualTo("pagination");
    assertThat(cycled.content())
        .extracting(ContentFetched::getItemId)
        .containsExactly("p1", "p2", "p3");
    assertThat(server.requestsMatching("/api.*")).hasSize(3);

    for (String bad : new String[] {"0", "-1", "1000000", "ten"}) {
      FetchResult refused = fetch(Map.of("items_pointer", "/results", "max_pages", bad), Map.of());
      assertThat(refused.completed().getErrorKind()).as(bad).isEqualTo("config");
      assertThat(refused.completed().getErrorMessage()).contains("max_pages").contains("1 to 100");
    }
  }

  @Test
  void malformedJsonAndBadMappingsFailClearly() throws Exception {
    answer("{\"items\": [");
    assertThat(fetch(Map.of(), Map.of()).completed().getErrorMessage()).contains("not valid JSON");
    answer("{\"data\": {}}");
    assertThat(fetch(Map.of(), Map.of()).completed().getErrorMessage())
        .contains("no array of items");
    assertThat(fetch(Map.of("items_pointer", "data"), Map.of()).completed().getErrorKind())
        .isEqualTo("config");
  }
}
