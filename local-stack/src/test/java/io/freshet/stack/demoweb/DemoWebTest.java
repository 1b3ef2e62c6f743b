package io.freshet.stack.demoweb;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The demo web over HTTP on a random port, its clock moved by hand. */
class DemoWebTest {

  static final Instant ORIGIN = Instant.parse("2026-11-22T12:00:00Z");
  static final Instant TRACE_START = Instant.parse("2025-02-18T00:00:00Z");
  static final long T0 = TRACE_START.getEpochSecond();
  static final long DAY = 86_400;

  final MutableClock wall = new MutableClock(ORIGIN);
  final HttpClient http =
      HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
  final JsonMapper json = JsonMapper.builder().build();
  DemoWeb web;

  @BeforeEach
  void start() throws Exception {
    // 20 feed timelines (items a day apart, the first two before the start) and 60 page timelines;
    // 80 sources over 80 hosts, so hosts 75-79 (sources 74-78) misbehave.
    List<String> feedIds = new ArrayList<>();
    long[][] feedTimes = new long[20][];
    for (int f = 0; f < 20; f++) {
      feedIds.add("feed-" + f);
      feedTimes[f] = new long[] {T0 - 2 * DAY, T0 - DAY, T0 + DAY, T0 + 2 * DAY, T0 + 3 * DAY};
    }
    List<String> pageIds = new ArrayList<>();
    long[][] pageTimes = new long[60][];
    for (int p = 0; p < 60; p++) {
      pageIds.add("page-" + p);
      pageTimes[p] = new long[] {T0 - DAY, T0 + DAY};
    }
    var settings =
        new DemoWebSettings(
            "0.0.0.0",
            0,
            80,
            80,
            3,
            1440,
            TRACE_START,
            ORIGIN,
            true,
            Duration.ofMillis(300),
            Duration.ofSeconds(2));
    Catalog catalog =
        Catalog.build(
            new TraceTimes(feedIds, feedTimes), new TraceTimes(pageIds, pageTimes), settings);
    web = DemoWeb.start(settings, catalog, wall);
  }

  @AfterEach
  void stop() {
    web.close();
  }

  @Test
  void aFeedAnswers304ToItsOwnETagUntilItsNextItemAppears() throws Exception {
    DemoSource rss = normal(Kind.RSS);
    var first = get(web.url(rss), null, null);
    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).contains("rss"));
    assertThat(first.body()).contains("<guid isPermaLink=\"false\">" + rss.id() + "-2</guid>");
    assertThat(first.body()).doesNotContain(rss.id() + "-3<");
    String etag = first.headers().firstValue("ETag").orElseThrow();
    String lastModified = first.headers().firstValue("Last-Modified").orElseThrow();

    assertThat(get(web.url(rss), etag, null).statusCode()).isEqualTo(304);
    assertThat(get(web.url(rss), null, lastModified).statusCode()).isEqualTo(304);
    assertThat(get(web.url(rss), null, null).body()).isEqualTo(first.body());

    wall.advance(Duration.ofSeconds(61)); // one trace day and a bit: item 3 is out
    var next = get(web.url(rss), etag, null);
    assertThat(next.statusCode()).isEqualTo(200);
    assertThat(next.body()).contains(rss.id() + "-3</guid>");
    assertThat(get(web.url(rss), null, lastModified).statusCode()).isEqualTo(200);

    var served = web.truth().entries(rss).stream().filter(e -> e.servedAt() != null).toList();
    assertThat(served)
        .extracting(e -> e.version().itemId())
        .containsExactly(rss.id() + "-1", rss.id() + "-2", rss.id() + "-3");
  }

  @Test
  void everyKindRendersADocumentItsParserReads() throws Exception {
    wall.advance(Duration.ofMinutes(2));
    for (Kind kind : Kind.values()) {
      DemoSource s = normal(kind);
      var r = get(web.url(s), null, null);
      assertThat(r.statusCode()).as(kind.name()).isEqualTo(200);
      switch (kind) {
        case RSS -> assertThat(r.body()).startsWith("<?xml").endsWith("</rss>\n");
        case ATOM ->
            assertThat(r.body()).contains("<entry><id>urn:freshet-demo:" + s.id() + "-3</id>");
        case JSON_FEED ->
            assertThat(json.readTree(r.body()).get("items").get(0).get("id").asString())
                .isEqualTo(s.id() + "-4");
        case ICAL ->
            assertThat(r.body())
                .contains("UID:" + s.id() + "-4@demo.freshet\r\n")
                .endsWith("END:VCALENDAR\r\n");
        case JSON_API ->
            assertThat(json.readTree(r.body()).get("next_sync_token").asString()).isEqualTo("4");
        case HTML -> assertThat(r.body()).contains("version 2,").contains("<main>");
      }
    }
  }

  @Test
  void anApiReadWithItsSyncTokenGetsOnlyWhatCameSinceAndAnUnknownTokenIs410() throws Exception {
    DemoSource api = normal(Kind.JSON_API);
    JsonNode first = json.readTree(get(web.url(api), null, null).body());
    assertThat(first.get("items")).hasSize(2);
    String token = first.get("next_sync_token").asString();
    assertThat(token).isEqualTo("2");

    JsonNode none = json.readTree(get(web.url(api) + "?sync_token=" + token, null, null).body());
    assertThat(none.get("items")).isEmpty();
    assertThat(none.get("next_sync_token").asString()).isEqualTo("2");

    wall.advance(Duration.ofSeconds(150));
    JsonNode later = json.readTree(get(web.url(api) + "?sync_token=" + token, null, null).body());
    assertThat(later.get("items"))
        .extracting(i -> i.get("id").asString())
        .containsExactly(api.id() + "-3", api.id() + "-4");
    assertThat(later.get("next_sync_token").asString()).isEqualTo("4");
    assertThat(get(web.url(api) + "?sync_token=99", null, null).statusCode()).isEqualTo(410);
  }

  @Test
  void misbehavingHostsMisbehaveTheirOwnWay() throws Exception {
    DemoSource limited = of(Behaviour.RATE_LIMITED);
    assertThat(get(web.url(limited), null, null).statusCode()).isEqualTo(200);
    var tooSoon = get(web.url(limited), null, null);
    assertThat(tooSoon.statusCode()).isEqualTo(429);
    assertThat(tooSoon.headers().firstValue("Retry-After")).hasValue("2");
    wall.advance(Duration.ofSeconds(3));
    assertThat(get(web.url(limited), null, null).statusCode()).isEqualTo(200);

    DemoSource flaky = of(Behaviour.FLAKY);
    assertThat(
            List.of(
                get(web.url(flaky), null, null).statusCode(),
                get(web.url(flaky), null, null).statusCode(),
                get(web.url(flaky), null, null).statusCode()))
        .containsExactly(200, 200, 503);

    DemoSource loop = of(Behaviour.REDIRECT_LOOP);
    var hop = get(web.url(loop), null, null);
    assertThat(hop.statusCode()).isEqualTo(302);
    String second = hop.headers().firstValue("Location").orElseThrow();
    var back = get("http://" + loop.host() + ":" + web.port() + second, null, null);
    assertThat(back.statusCode()).isEqualTo(302);
    assertThat(back.headers().firstValue("Location")).hasValue(loop.path());

    DemoSource malformed = of(Behaviour.MALFORMED);
    var broken = get(web.url(malformed), null, null);
    assertThat(broken.statusCode()).isEqualTo(200);
    assertThat(broken.headers().firstValue("ETag")).isEmpty();
    assertThat(web.truth().entries(malformed)).allMatch(e -> e.servedAt() == null);

    DemoSource slow = of(Behaviour.SLOW);
    long started = System.nanoTime();
    assertThat(get(web.url(slow), null, null).statusCode()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isGreaterThanOrEqualTo(Duration.ofMillis(300));
  }

  @Test
  void theTruthEndpointCountsWhatWasPublishedAndWhatWasServed() throws Exception {
    DemoSource rss = normal(Kind.RSS);
    get(web.url(rss), null, null);
    JsonNode summary = json.readTree(get(base() + "/_truth", null, null).body());
    assertThat(summary.get("sources").asInt()).isEqualTo(80);
    assertThat(summary.get("deliverable_sources").asInt()).isEqualTo(78);
    assertThat(summary.get("served_versions").asLong()).isEqualTo(2);
    assertThat(summary.get("trace_now").asString()).isEqualTo("2025-02-18T00:00:00Z");

    String versions = get(base() + "/_truth/versions", null, null).body();
    assertThat(versions.lines().filter(l -> l.contains("\"source_id\":\"" + rss.id() + "\"")))
        .hasSize(2)
        .allMatch(l -> !l.contains("\"served_at\":null"));
    assertThat(web.truth().servedCountBySource()).containsEntry(rss.id(), 2).hasSize(78);

    // every source with the hub it announces, the one its versions carry
    String truthSources = get(base() + "/_truth/sources", null, null).body();
    assertThat(truthSources.lines()).hasSize(80);
    for (String line : truthSources.lines().toList()) {
      JsonNode s = json.readTree(line);
      DemoSource source = web.catalog().get(s.get("source_id").asString());
      DemoHub.Variant hub = DemoHub.variantOf(source);
      assertThat(s.get("hub").isNull() ? null : s.get("hub").asString())
          .isEqualTo(hub == null ? null : hub.name().toLowerCase());
      assertThat(s.get("path").asString()).isEqualTo(source.path());
    }
    assertThat(truthSources.lines().filter(l -> l.contains("\"hub\":\"good\""))).isNotEmpty();
    String rssHub =
        DemoHub.variantOf(rss) == null
            ? "null"
            : "\"" + DemoHub.variantOf(rss).name().toLowerCase() + "\"";
    assertThat(versions.lines().filter(l -> l.contains("\"source_id\":\"" + rss.id() + "\"")))
        .allMatch(l -> l.contains("\"hub\":" + rssHub));

    String sources = get(base() + "/_sources", null, null).body();
    assertThat(sources.lines()).hasSize(80);
    JsonNode api =
        json.readTree(
            sources.lines().filter(l -> l.contains("\"json\"")).findFirst().orElseThrow());
    assertThat(api.get("config").get("cursor_mode").asString()).isEqualTo("sync_token");
    assertThat(api.get("url").asString()).startsWith("http://127.0.1.");
    assertThat(get(base() + "/rss/page-0", null, null).statusCode()).isEqualTo(404);
  }

  String base() {
    return "http://127.0.0.1:" + web.port();
  }

  DemoSource normal(Kind kind) {
    return web.catalog().sources().stream()
        .filter(s -> s.kind() == kind && s.behaviour() == Behaviour.NORMAL)
        .findFirst()
        .orElseThrow();
  }

  DemoSource of(Behaviour behaviour) {
    return web.catalog().sources().stream()
        .filter(s -> s.behaviour() == behaviour)
        .findFirst()
        .orElseThrow();
  }

  HttpResponse<String> get(String url, String ifNoneMatch, String ifModifiedSince)
      throws Exception {
    var b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (ifNoneMatch != null) {
      b.header("If-None-Match", ifNoneMatch);
    }
    if (ifModifiedSince != null) {
      b.header("If-Modified-Since", ifModifiedSince);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }
}
