package io.freshet.worker.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.testsupport.FeedServer;
import io.freshet.worker.testing.Requests;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class FetchOnceCommandTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static FeedServer server;

  @BeforeAll
  static void start() {
    server = FeedServer.start();
    server.serve("/feed", "application/rss+xml", Requests.rss("a", "b", "c"), "\"v7\"");
    server.failWith("/missing", 404, null);
    server.serve("/robots.txt", "text/plain", "User-agent: *\nDisallow: /private\n", null);
    server.serve("/private/page", "text/html", "<html><body><main>hi</main></body></html>", null);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private record Run(int code, List<JsonNode> lines, String err) {}

  private static Run run(String... args) {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    int code =
        FetchOnceCommand.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    List<JsonNode> lines =
        out.toString(StandardCharsets.UTF_8).lines().map(JSON::readTree).toList();
    return new Run(code, lines, err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void printsEachItemThenTheOutcomeAsJsonLinesAndExitsZero() {
    Run run = run("--connector", "feed", server.url("/feed"), "--allow-loopback");
    assertThat(run.code()).isZero();
    assertThat(run.lines()).hasSize(4);
    JsonNode first = run.lines().get(0);
    assertThat(first.get("item_id").asString()).isEqualTo("a");
    assertThat(first.get("content_hash").asString()).hasSize(64);
    assertThat(first.get("published_at").asString()).isEqualTo("2026-11-21T09:00:00Z");
    assertThat(first.get("title").asString()).isEqualTo("Item a");
    assertThat(first.get("signal_type").asString()).isEqualTo("informative");
    JsonNode outcome = run.lines().get(3);
    assertThat(outcome.get("outcome").asString()).isEqualTo("ok");
    assertThat(outcome.get("http_status").asInt()).isEqualTo(200);
    assertThat(outcome.get("cursor").get("etag").asString()).startsWith("\"v7");
    assertThat(outcome.get("cursor").get("seen").asString()).startsWith("1:");
  }

  @Test
  void theOutcomeShowsTheServersHintsTheMoveItWouldRecordAndTheRepairsOfALenientParse() {
    server.stub(
        com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo("/old-home"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(308)
                    .withHeader("Location", "/hinted")));
    server.stub(
        com.github.tomakehurst.wiremock.client.WireMock.get(
                com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo("/hinted"))
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/rss+xml")
                    .withHeader("Link", "<https://hub.example/>; rel=hub")
                    .withBody(
                        "<rss version=\"2.0\"><channel><title>Caf&eacute;&nbsp;</title>"
                            + "<ttl>120</ttl><skipHours><hour>3</hour></skipHours>"
                            + "<item><guid>x</guid><title>x</title></item></channel></rss>"
                            + "<script>tracker()</script>")));

    Run run = run("--connector", "feed", server.url("/old-home"), "--allow-loopback");

    assertThat(run.code()).isZero();
    JsonNode outcome = run.lines().getLast();
    assertThat(outcome.get("moved_to").asString()).isEqualTo(server.url("/hinted"));
    assertThat(outcome.get("hub_url").asString()).isEqualTo("https://hub.example/");
    JsonNode hints = outcome.get("hints");
    assertThat(hints.get("ttl_minutes").asInt()).isEqualTo(120);
    assertThat(hints.get("skip_hours").get(0).asInt()).isEqualTo(3);
    assertThat(hints.get("next_fetch_not_before").asString()).isNotBlank();
    assertThat(outcome.get("recovered_by").toString()).contains("content_after_root");

    JsonNode plain =
        run("--connector", "feed", server.url("/feed"), "--allow-loopback").lines().getLast();
    assertThat(plain.get("hints").isNull()).isTrue();
    assertThat(plain.get("moved_to").isNull()).isTrue();
    assertThat(plain.get("recovered_by")).isEmpty();
  }

  @Test
  void theConfigLimitsItemsAllItemsLiftsTheLimitAndTheCursorMakesItConditional() {
    assertThat(
            run(
                    "--connector",
                    "feed",
                    server.url("/feed"),
                    "--allow-loopback",
                    "--config",
                    "{\"item_limit\": 1}")
                .lines())
        .hasSize(2);
    assertThat(
            run(
                    "--connector",
                    "feed",
                    server.url("/feed"),
                    "--allow-loopback",
                    "--config",
                    "{\"item_limit\": 1}",
                    "--all-items")
                .lines())
        .hasSize(4);
    Run conditional =
        run(
            "--connector",
            "feed",
            server.url("/feed"),
            "--allow-loopback",
            "--cursor",
            "{\"etag\": \"\\\"v7\\\"\"}");
    assertThat(conditional.code()).isZero();
    assertThat(conditional.lines())
        .singleElement()
        .satisfies(l -> assertThat(l.get("outcome").asString()).isEqualTo("not_modified"));
  }

  @Test
  void loopbackIsRefusedUnlessAllowedAndFailuresExitTwoWithTheErrorOnStderr() {
    Run refused = run("--connector", "feed", server.url("/feed"));
    assertThat(refused.code()).isEqualTo(2);
    assertThat(refused.err()).contains("refused_address").contains("127.0.0.1");
    assertThat(refused.lines().getLast().get("outcome").asString()).isEqualTo("failed");

    Run missing = run("--connector", "feed", server.url("/missing"), "--allow-loopback");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("http_4xx").contains("HTTP 404");
  }

  @Test
  void theOutcomeSaysWhatRobotsTxtDecidedAndWhy() {
    Run disallowed = run("--connector", "html", server.url("/private/page"), "--allow-loopback");
    assertThat(disallowed.code()).isEqualTo(2);
    assertThat(disallowed.err()).contains("robots").contains("Disallow: /private");
    JsonNode outcome = disallowed.lines().getLast();
    assertThat(outcome.get("error_kind").asString()).isEqualTo("robots");
    JsonNode robots = outcome.get("robots");
    assertThat(robots.get("decision").asString()).isEqualTo("disallowed");
    assertThat(robots.get("robots_url").asString()).isEqualTo(server.url("/robots.txt"));
    assertThat(robots.get("reason").asString()).contains("disallows /private/page");
    assertThat(server.requests("/private/page")).isEmpty();

    JsonNode feed =
        run("--connector", "feed", server.url("/feed"), "--allow-loopback")
            .lines()
            .getLast()
            .get("robots");
    assertThat(feed.get("decision").asString()).isEqualTo("not_applied");
    assertThat(feed.get("reason").asString()).contains("\"robots\": \"obey\"");
  }

  @Test
  void badArgumentsExitTwoWithOneLineNamingTheHelp() {
    Run run = run("--connector", "gopher", "http://x.example/");
    assertThat(run.code()).isEqualTo(2);
    assertThat(run.err())
        .isEqualTo(
            "fetch: --connector: unknown connector 'gopher'; allowed: feed, ical, json, html"
                + " (fetch --help)"
                + System.lineSeparator());
    assertThat(run("--connector", "feed").err()).contains("Missing required parameter: 'URL'");
    assertThat(run("--connector", "feed", "--config", "[1]", "http://x.example/").err())
        .contains("--config: must be a JSON object");
  }
}
