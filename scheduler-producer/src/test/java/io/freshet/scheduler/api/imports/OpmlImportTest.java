package io.freshet.scheduler.api.imports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.kit.web.ApiException;
import io.freshet.scheduler.api.sources.SourceRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class OpmlImportTest {

  static final String SUBSCRIPTIONS =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0">
        <head>
          <title>Subscriptions of Ada</title>
          <dateCreated>Mon, 05 Jan 2026 09:00:00 GMT</dateCreated>
        </head>
        <body>
          <outline text="rss" title="rss">
            <outline type="rss" text="Example News" title="Example News"
                     xmlUrl="https://news.example.org/feed.xml" htmlUrl="https://news.example.org/"/>
            <outline text="Tech">
              <outline type="rss" text="Kernel &amp; Friends" xmlUrl="https://kernel.example.org/atom"/>
            </outline>
          </outline>
          <outline text="Calendar">
            <outline type="rss" text="City events" xmlUrl="https://city.example.org/events.rss"/>
          </outline>
          <outline text="Podcasts">
            <outline type="rss" title="Weekly Cast" text="weekly" xmlUrl="https://cast.example.org/rss"/>
          </outline>
          <outline type="rss" xmlUrl="https://loose.example.org/feed"/>
          <outline text="just a note"/>
        </body>
      </opml>
      """;

  private static List<ImportEntry> parse(String xml) {
    return OpmlImport.parse(xml.getBytes(StandardCharsets.UTF_8), 1000);
  }

  @Test
  void everyOutlineWithAnXmlUrlBecomesAFeedWithItsNearestCategoryFolder() {
    List<ImportEntry> entries = parse(SUBSCRIPTIONS);

    assertThat(entries)
        .extracting(ImportEntry::label)
        .containsExactly("outline 2", "outline 4", "outline 6", "outline 8", "outline 9");
    assertThat(entries)
        .extracting(e -> e.body().get("name").stringValue())
        .containsExactly(
            "Example News",
            "Kernel & Friends",
            "City events",
            "Weekly Cast",
            "https://loose.example.org/feed");
    assertThat(entries)
        .extracting(
            e -> e.body().get("category") == null ? null : e.body().get("category").stringValue())
        .containsExactly("rss", "rss", "calendar", null, null);
    assertThat(entries)
        .allSatisfy(e -> assertThat(e.body().get("connector").stringValue()).isEqualTo("feed"));
    assertThat(entries.get(1).body().get("url").stringValue())
        .isEqualTo("https://kernel.example.org/atom");
  }

  @Test
  void opml1WithLowerCaseAttributesIsRead() {
    List<ImportEntry> entries =
        parse(
            """
            <opml version="1.0"><head/><body>
              <outline text="Blog" xmlurl="http://blog.example.org/rss"/>
            </body></opml>
            """);

    assertThat(entries)
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.body().get("url").stringValue())
                    .isEqualTo("http://blog.example.org/rss"));
  }

  @Test
  void aDoctypeIsRefusedSoNoEntityIsExpanded() {
    String xxe =
        """
        <?xml version="1.0"?>
        <!DOCTYPE opml [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <opml version="2.0"><body><outline text="&x;" xmlUrl="https://a.example/"/></body></opml>
        """;

    assertThatThrownBy(() -> parse(xxe))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
              assertThat(e.errors()).singleElement().asString().startsWith("body: ");
              assertThat(e.errors().getFirst()).doesNotContain("root:");
            });
  }

  @Test
  void malformedXmlSaysWhere() {
    assertThatThrownBy(() -> parse("<opml><body><outline text=\"a\"></body></opml>"))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.errors())
                    .singleElement()
                    .asString()
                    .startsWith("body: not well-formed XML at line 1"));
  }

  @Test
  void otherXmlOrNoFeedsIsRejected() {
    assertThatThrownBy(() -> parse("<rss version=\"2.0\"/>"))
        .hasMessageContaining("not an OPML document (root element <rss>");
    assertThatThrownBy(() -> parse("<opml><body><outline text=\"empty\"/></body></opml>"))
        .hasMessageContaining("no <outline> with an xmlUrl");
  }

  @Test
  void tooManyFeedsIs413() {
    assertThatThrownBy(() -> OpmlImport.parse(SUBSCRIPTIONS.getBytes(StandardCharsets.UTF_8), 3))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> assertThat(e.status()).isEqualTo(HttpStatus.CONTENT_TOO_LARGE));
  }

  @Test
  void htmlNamedEntitiesAreReadAsTheCharactersTheyName() {
    List<ImportEntry> entries =
        parse(
            """
            <opml version="2.0"><body>
              <outline text="Caf&eacute;&nbsp;Cr&egrave;me &amp; &lt;Co&gt; &mdash; &#233;t&#xE9;"
                       xmlUrl="https://cafe.example.org/rss?a=1&amp;b=2"/>
            </body></opml>
            """);

    assertThat(entries.getFirst().body().get("name").stringValue())
        .isEqualTo("Caf\u00e9\u00a0Cr\u00e8me & <Co> \u2014 \u00e9t\u00e9");
    assertThat(entries.getFirst().body().get("url").stringValue())
        .isEqualTo("https://cafe.example.org/rss?a=1&b=2");
  }

  @Test
  void anUnknownEntityIsStillAnErrorThatSaysWhere() {
    assertThatThrownBy(
            () ->
                parse(
                    "<opml><body><outline text=\"&bogus;\" xmlUrl=\"https://a.example/\"/>"
                        + "</body></opml>"))
        .hasMessageContaining("body: not well-formed XML at line 1");
  }

  @Test
  void anOverLongTitleIsTruncatedWithAWarning() {
    String title = "T".repeat(SourceRequest.MAX_NAME + 50);
    List<ImportEntry> entries =
        parse(
            "<opml><body><outline text=\"%s\" xmlUrl=\"https://a.example/\"/></body></opml>"
                .formatted(title));

    ImportEntry entry = entries.getFirst();
    assertThat(entry.body().get("name").stringValue()).hasSize(SourceRequest.MAX_NAME);
    assertThat(entry.warnings())
        .containsExactly("outline 1: title of 250 characters truncated to the limit of 200");
  }
}
