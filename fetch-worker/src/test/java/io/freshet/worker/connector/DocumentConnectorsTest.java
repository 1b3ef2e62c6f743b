package io.freshet.worker.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.Connector;
import io.freshet.schemas.avro.ContentFetched;
import io.freshet.schemas.avro.FetchCompleted;
import io.freshet.schemas.avro.FetchRequested;
import io.freshet.schemas.avro.FetchStatus;
import io.freshet.schemas.avro.SignalType;
import io.freshet.schemas.crypto.CredentialCipher;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.config.FetchPath;
import io.freshet.worker.fetch.CredentialsOpener;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.signal.RuleSignalClassifier;
import io.freshet.worker.signal.SignalRules;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.Requests;
import io.freshet.worker.testing.TestFetchPaths;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The iCalendar and HTML connectors through the whole fetch path against a loopback server, and the
 * contract every connector shares: 304, 404, 410, 500 → retry → 200, malformed bodies.
 */
class DocumentConnectorsTest {

  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private static FeedServer server;
  private final FakeTime time = new FakeTime(NOW);
  private final HttpFetcher http = TestFetchPaths.fetcher(time);
  private final SourceFetcher fetcher =
      new SourceFetcher(
          FetchPath.connectors(),
          http,
          new RuleSignalClassifier(new SignalRules(List.of(), List.of(), List.of("for sale"))),
          new CredentialsOpener(
              CredentialCipher.fromBase64Key(
                  java.util.Base64.getEncoder().encodeToString(new byte[32]))),
          new ConnectorOptions(50, Duration.ofDays(30), Duration.ofDays(60), false),
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

  private static String resource(String name) throws Exception {
    try (InputStream in = DocumentConnectorsTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private FetchResult fetch(Connector connector, String path, Map<String, String> config)
      throws Exception {
    FetchRequested request =
        Requests.request(connector, server.url(path), NOW).setConfig(config).build();
    return fetcher.fetch(request, false);
  }

  @Test
  void icalEventsInTheWindowWithRecurrencesExpandedAsEventsAtTheirStart() throws Exception {
    server.serve("/town.ics", "text/calendar", resource("/calendars/town.ics"), null);
    FetchResult result = fetch(Connector.ical, "/town.ics", Map.of());
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    List<ContentFetched> items = result.content();
    // Weekly standups from 2 Nov: 10 occurrences, all within [22 Oct, 21 Jan].
    assertThat(items).filteredOn(i -> i.getItemId().startsWith("weekly-1@")).hasSize(10);
    assertThat(items)
        .extracting(ContentFetched::getItemId)
        .contains("single-1", "allday-1")
        .doesNotContain("far-1");
    ContentFetched single =
        items.stream().filter(i -> i.getItemId().equals("single-1")).findFirst().orElseThrow();
    assertThat(single.getSignalType()).isEqualTo(SignalType.event);
    assertThat(single.getEventAt()).isEqualTo(Instant.parse("2026-11-25T18:00:00Z"));
    assertThat(single.getTitle()).isEqualTo("Town hall meeting");
    assertThat(single.getMetadata()).containsEntry("location", "Town hall");
    assertThat(single.getUrl()).isEqualTo(server.url("/events/1"));
    assertThat(
            items.stream()
                .filter(i -> i.getItemId().equals("allday-1"))
                .findFirst()
                .orElseThrow()
                .getEventAt())
        .isEqualTo(Instant.parse("2026-12-01T00:00:00Z"));
    assertThat(result.content()).allSatisfy(i -> assertThat(i.getEventAt()).isNotNull());
  }

  @Test
  void aShorterWindowAheadDropsLaterOccurrences() throws Exception {
    server.serve("/town.ics", "text/calendar", resource("/calendars/town.ics"), null);
    FetchResult result = fetch(Connector.ical, "/town.ics", Map.of("window_ahead_days", "7"));
    assertThat(result.content())
        .extracting(ContentFetched::getEventAt)
        .allSatisfy(at -> assertThat(at).isBefore(NOW.plus(Duration.ofDays(7))));
  }

  @Test
  void htmlItemsBySelectorAndSchemaOrgEvents() throws Exception {
    server.serve("/club", "text/html; charset=utf-8", resource("/pages/events.html"), null);
    FetchResult result = fetch(Connector.html, "/club", Map.of("selector", "article.post"));
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    List<ContentFetched> items = result.content();
    assertThat(items)
        .extracting(ContentFetched::getItemId)
        .containsExactly("https://club.example/e/jazz", "p1", "p2");
    ContentFetched jazz = items.get(0);
    assertThat(jazz.getSignalType()).isEqualTo(SignalType.event);
    assertThat(jazz.getEventAt()).isEqualTo(Instant.parse("2026-12-05T19:00:00Z"));
    assertThat(jazz.getUrl()).isEqualTo(server.url("/e/jazz"));
    assertThat(jazz.getMetadata()).containsEntry("location", "Cellar");
    ContentFetched bake = items.get(1);
    assertThat(bake.getTitle()).isEqualTo("Bake sale");
    assertThat(bake.getUrl()).isEqualTo(server.url("/posts/1"));
    assertThat(bake.getPublishedAt()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z"));
    assertThat(bake.getSignalType()).isEqualTo(SignalType.give);
  }

  @Test
  void htmlItemSelectorsFromTheConfigApplyToEveryMatchAndABadOneFailsAsConfig() throws Exception {
    server.serve("/club", "text/html", resource("/pages/events.html"), null);
    // structural selectors (a combinator), each parsed once for the page and used on every match
    FetchResult result =
        fetch(
            Connector.html,
            "/club",
            Map.of(
                "selector", "main > article",
                "title_selector", "article > p",
                "link_selector", "h2 ~ a",
                "date_selector", "a + time"));
    assertThat(result.completed().getStatus()).isEqualTo(FetchStatus.ok);
    List<ContentFetched> posts =
        result.content().stream().filter(i -> i.getItemId().startsWith("p")).toList();
    assertThat(posts).extracting(ContentFetched::getItemId).containsExactly("p1", "p2");
    assertThat(posts)
        .extracting(ContentFetched::getTitle)
        .containsExactly("Cakes for sale.", "We got chairs.");
    assertThat(posts)
        .extracting(ContentFetched::getUrl)
        .containsExactly(server.url("/posts/1"), "https://club.example/posts/2");
    assertThat(posts.get(0).getPublishedAt()).isEqualTo(Instant.parse("2026-11-20T10:00:00Z"));
    assertThat(posts.get(1).getPublishedAt()).isNull();

    FetchResult badTitle =
        fetch(Connector.html, "/club", Map.of("selector", "article", "title_selector", "h2[[["));
    assertThat(badTitle.completed().getErrorKind()).isEqualTo("config");
    assertThat(badTitle.completed().getErrorMessage()).contains("h2[[[");
  }

  @Test
  void htmlWholePageIsOneItemOfItsMainText() throws Exception {
    server.serve("/club", "text/html", resource("/pages/events.html"), null);
    FetchResult result = fetch(Connector.html, "/club", Map.of());
    ContentFetched page = result.content().get(0);
    assertThat(page.getItemId()).isEqualTo(server.url("/club"));
    assertThat(page.getTitle()).isEqualTo("Club news");
    assertThat(page.getBody())
        .contains("Bake sale")
        .contains("We got chairs.")
        .doesNotContain("Menu");
    assertThat(result.content()).hasSize(2); // the page and the JSON-LD event
  }

  @Test
  void malformedCalendarsAndBadSelectorsFailClearly() throws Exception {
    server.serve("/bad.ics", "text/calendar", resource("/calendars/malformed.ics"), null);
    FetchResult bad = fetch(Connector.ical, "/bad.ics", Map.of());
    assertThat(bad.completed().getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(bad.completed().getErrorKind()).isEqualTo("parse");
    assertThat(bad.completed().getErrorMessage()).contains("iCalendar");

    server.serve("/club", "text/html", resource("/pages/events.html"), null);
    FetchResult badSelector = fetch(Connector.html, "/club", Map.of("selector", "article[[["));
    assertThat(badSelector.completed().getErrorKind()).isEqualTo("config");
  }

  @ParameterizedTest
  @EnumSource(
      value = Connector.class,
      names = {"feed", "ical", "html"})
  void everyConnectorAnswers304404410AndRetries500(Connector connector) throws Exception {
    String body =
        switch (connector) {
          case feed -> Requests.rss("a");
          case ical -> resource("/calendars/town.ics");
          default -> resource("/pages/events.html");
        };
    server.serve("/doc", "text/plain", body, "\"etag-1\"");
    FetchResult ok = fetch(connector, "/doc", Map.of());
    assertThat(ok.completed().getStatus()).isEqualTo(FetchStatus.ok);
    FetchRequested conditional =
        Requests.request(connector, server.url("/doc"), NOW)
            .setCursor(Map.of("etag", "\"etag-1\""))
            .build();
    assertThat(fetcher.fetch(conditional, false).completed().getStatus())
        .isEqualTo(FetchStatus.not_modified);
    server.failWith("/missing", 404, null);
    assertThat(fetch(connector, "/missing", Map.of()).completed().getHttpStatus()).isEqualTo(404);
    server.failWith("/gone", 410, null);
    assertThat(fetch(connector, "/gone", Map.of()).completed().getErrorKind())
        .isEqualTo("http_4xx");
    server.failWith("/down", 500, null);
    FetchResult down = fetch(connector, "/down", Map.of());
    assertThat(down.completed().getErrorKind()).isEqualTo("http_5xx");
    assertThat(down.completed().getAttempts()).isEqualTo(4);
  }

  @ParameterizedTest
  @EnumSource(
      value = Connector.class,
      names = {"feed", "ical", "json", "html"})
  void everyConnectorReportsThrottlingLoopsOversizeSlownessAndMalformedBodies(Connector connector)
      throws Exception {
    server.stub(
        com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo("/loop"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(302)
                    .withHeader("Location", "/loop")));
    assertThat(fetch(connector, "/loop", Map.of()).completed().getErrorKind())
        .isEqualTo("too_many_redirects");

    byte[] noise = new byte[150 * 1024];
    new java.util.Random(7).nextBytes(noise);
    server.serve("/huge", "text/plain", java.util.Base64.getEncoder().encodeToString(noise), null);
    assertThat(fetch(connector, "/huge", Map.of()).completed().getErrorKind())
        .isEqualTo("too_large");

    server.stub(
        com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo("/slow"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(200)
                    .withBody("{}")
                    .withFixedDelay(5_000)));
    assertThat(fetch(connector, "/slow", Map.of()).completed().getErrorKind()).isEqualTo("timeout");

    String malformed =
        switch (connector) {
          case feed -> "<rss><channel><item><title>unclosed";
          case ical -> "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:nope\r\n";
          case json -> "{\"items\": [";
          default -> null; // a browser-grade HTML parser reads anything
        };
    if (malformed != null) {
      server.serve("/malformed", "text/plain", malformed, null);
      FetchResult bad = fetch(connector, "/malformed", Map.of());
      assertThat(bad.completed().getStatus()).isEqualTo(FetchStatus.failed);
      assertThat(bad.completed().getErrorKind()).isEqualTo("parse");
      assertThat(bad.completed().getErrorMessage()).isNotBlank();
    }
    // Last: after a 429 the whole host cools down, and later requests to it are not sent.
    server.failWith("/throttled", 429, 3600);
    FetchResult throttled = fetch(connector, "/throttled", Map.of());
    assertThat(throttled.completed().getStatus()).isEqualTo(FetchStatus.failed);
    assertThat(throttled.completed().getHttpStatus()).isEqualTo(429);
    assertThat(throttled.completed().getRetryAfter()).isEqualTo(NOW.plusSeconds(3600));
    server.serve("/after", "text/plain", "x", null);
    FetchCompleted deferred = fetch(connector, "/after", Map.of()).completed();
    assertThat(deferred.getErrorKind()).isEqualTo("host_cooling_down");
    // Not sent, so not a failure of that source: expired, due again when the cool-down ends.
    assertThat(deferred.getStatus()).isEqualTo(FetchStatus.expired);
    assertThat(deferred.getRetryAfter()).isAfter(NOW);
    assertThat(server.requests("/after")).isEmpty();
  }
}
