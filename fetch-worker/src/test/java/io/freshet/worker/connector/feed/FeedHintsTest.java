package io.freshet.worker.connector.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.worker.connector.ServerHints;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FeedHintsTest {

  private static final URI BASE = URI.create("https://example.org/feed.xml");

  private static ServerHints hints(String xml) throws Exception {
    return new XmlFeedParser(ParseObserver.NONE)
        .read(xml.getBytes(StandardCharsets.UTF_8), "application/rss+xml", BASE)
        .hints();
  }

  @Test
  void rssTtlSkipHoursSkipDaysAndLinksAreRead() throws Exception {
    ServerHints h =
        hints(
            """
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
              <title>t</title><link>https://example.org/</link><description>d</description>
              <ttl>90</ttl>
              <skipHours><hour>0</hour><hour>24</hour><hour>3</hour><hour>99</hour></skipHours>
              <skipDays><day>Saturday</day><day>sunday</day><day>Caturday</day></skipDays>
              <atom:link rel="self" href="/rss"/>
              <atom:link rel="hub" href="https://pubsubhubbub.appspot.com/"/>
              <item><guid>1</guid><title>a</title></item>
            </channel></rss>
            """);
    assertThat(h.ttlMinutes()).isEqualTo(90);
    assertThat(h.skipHours()).containsExactly(0, 3);
    assertThat(h.skipDays()).containsExactly(6, 7);
    assertThat(h.selfUrl()).isEqualTo("https://example.org/rss");
    assertThat(h.hubUrl()).isEqualTo("https://pubsubhubbub.appspot.com/");
    assertThat(h.updatePeriod()).isNull();
  }

  @Test
  void syndicationModuleGivesAnUpdatePeriodAndNonsenseGivesNothing() throws Exception {
    String sy =
        """
        <rss version="2.0" xmlns:sy="http://purl.org/rss/1.0/modules/syndication/"><channel>
          <title>t</title><sy:updatePeriod>%s</sy:updatePeriod>
          <sy:updateFrequency>%s</sy:updateFrequency><ttl>%s</ttl>
        </channel></rss>
        """;
    ServerHints hourly = hints(sy.formatted("hourly", "2", "0"));
    assertThat(hourly.updatePeriod()).isEqualTo(Duration.ofMinutes(30));
    assertThat(hourly.ttlMinutes()).as("ttl 0").isNull();
    ServerHints bogus = hints(sy.formatted("fortnightly", "1", "-5"));
    assertThat(bogus.updatePeriod()).isNull();
    assertThat(bogus.ttlMinutes()).isNull();
    assertThat(hints(sy.formatted("daily", "0", "99999999")).updatePeriod()).isNull();
    assertThat(bogus.limitsFreshness()).isFalse();
  }

  @Test
  void aJsonFeedGivesItsFeedUrlAndItsWebSubHub() throws Exception {
    String feed =
        """
        {"version": "https://jsonfeed.org/version/1.1", "title": "t",
         "feed_url": "/feed.json",
         "hubs": [{"type": "rssCloud", "url": "https://cloud.example/"}, %s
                  {"type": "WebSub", "url": "https://websub.example/hub"}],
         "items": [{"id": "1", "content_text": "a"}]}
        """;
    ServerHints h =
        new JsonFeedParser()
            .read(feed.formatted("").getBytes(StandardCharsets.UTF_8), BASE)
            .hints();
    assertThat(h.selfUrl()).isEqualTo("https://example.org/feed.json");
    assertThat(h.hubUrl()).isEqualTo("https://websub.example/hub");
    assertThat(h.limitsFreshness()).isFalse();

    // a hub list longer than anyone needs is read only so far
    String many = "{\"type\": \"other\", \"url\": \"https://x.example/\"},".repeat(20);
    ServerHints far =
        new JsonFeedParser()
            .read(feed.formatted(many).getBytes(StandardCharsets.UTF_8), BASE)
            .hints();
    assertThat(far.hubUrl()).isNull();
    assertThat(
            new JsonFeedParser()
                .read("{\"items\": []}".getBytes(StandardCharsets.UTF_8), BASE)
                .hints())
        .isEqualTo(ServerHints.NONE);
  }

  @Test
  void atomFeedsGiveTheirSelfAndHubLinks() throws Exception {
    ServerHints h =
        hints(
            """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>urn:x</id>
              <updated>2026-11-01T00:00:00Z</updated>
              <link rel="alternate" href="https://example.org/"/>
              <link rel="hub" href="https://hub.example/"/>
              <link rel="self" href="https://feeds.example.org/atom"/>
            </feed>
            """);
    assertThat(h.hubUrl()).isEqualTo("https://hub.example/");
    assertThat(h.selfUrl()).isEqualTo("https://feeds.example.org/atom");
    assertThat(h.limitsFreshness()).isFalse();
  }

  @Test
  void skippingEveryHourIsNoHint() throws Exception {
    StringBuilder all = new StringBuilder();
    for (int i = 0; i < 24; i++) {
      all.append("<hour>").append(i).append("</hour>");
    }
    ServerHints h =
        hints(
            "<rss version=\"2.0\"><channel><title>t</title><skipHours>"
                + all
                + "</skipHours></channel></rss>");
    assertThat(h.skipHours()).isEmpty();
  }
}
