package io.freshet.worker.connector.feed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.worker.http.ErrorKind;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.items.WebDates;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The feed documents in {@code src/test/resources/feeds}, each parsed to the items it holds. */
class FeedCorpusTest {

  private final FeedConnector feed = new FeedConnector();

  private List<RawItem> parse(String name, String contentType, String base) throws Exception {
    return feed.parse(read(name), contentType, URI.create(base));
  }

  static byte[] read(String name) throws IOException {
    try (InputStream in = FeedCorpusTest.class.getResourceAsStream("/feeds/" + name)) {
      return in.readAllBytes();
    }
  }

  @Test
  void rss20WithCdataHtmlTitlesRelativeLinksDublinCoreAndAMissingDate() throws Exception {
    List<RawItem> items = parse("rss20.xml", "application/rss+xml", "https://town.example/rss");
    assertThat(items).hasSize(3);
    RawItem first = items.get(0);
    assertThat(first.sourceId()).isEqualTo("news-101");
    assertThat(first.title()).isEqualTo("Library reopens on Monday");
    assertThat(first.url()).isEqualTo("https://town.example/news/library?utm_source=rss");
    assertThat(first.body()).contains("after works"); // content:encoded wins over description
    assertThat(first.publishedAt()).isEqualTo(Instant.parse("2026-11-21T09:00:00Z"));
    assertThat(first.metadata()).containsEntry("categories", "civic");

    RawItem second = items.get(1);
    assertThat(second.publishedAt()).isEqualTo(Instant.parse("2026-11-20T18:30:00Z")); // dc:date
    assertThat(second.metadata()).containsEntry("author", "Parks office");

    assertThat(items.get(2).publishedAt()).isNull();
  }

  @Test
  void whenRomeSkipsAnEntryTheDocumentHoldsEveryEntryKeepsRomesDate() throws Exception {
    // the x:item is an entry to RawDates (any namespace) and none to Rome: the entries do not line
    // up, so no date is taken as written and Rome's are kept, as they were read
    byte[] body =
        ("<rss version=\"2.0\"><channel><title>t</title>"
                + "<x:item xmlns:x=\"urn:x\"><pubDate>Sat, 21 Nov 2026 10:00:00 GMT</pubDate></x:item>"
                + "<item><guid>a</guid><title>A</title>"
                + "<pubDate>Sat, 21 Nov 2026 11:00:00 GMT</pubDate></item>"
                + "<item><guid>b</guid><title>B</title><pubDate>Sun, 22 Nov 2026 08:30:00 GMT</pubDate>"
                + "</item></channel></rss>")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    List<RawItem> items = feed.parse(body, "application/rss+xml", URI.create("https://x.example/"));
    assertThat(items).extracting(RawItem::sourceId).containsExactly("a", "b");
    assertThat(items.get(0).publishedAt()).isEqualTo(Instant.parse("2026-11-21T11:00:00Z"));
    assertThat(items.get(1).publishedAt()).isEqualTo(Instant.parse("2026-11-22T08:30:00Z"));
  }

  @Test
  void rss091InIso88591() throws Exception {
    List<RawItem> items = parse("rss091.xml", "text/xml", "http://old.example/rss");
    assertThat(items).singleElement().satisfies(i -> assertThat(i.title()).isEqualTo("Café opens"));
  }

  @Test
  void atomWithHtmlTitleAndOnlyAnUpdatedDate() throws Exception {
    List<RawItem> items = parse("atom.xml", "application/atom+xml", "https://blog.example/atom");
    assertThat(items).hasSize(2);
    assertThat(items.get(0).title()).isEqualTo("Release & notes");
    assertThat(items.get(0).sourceId()).isEqualTo("urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6a");
    assertThat(items.get(0).publishedAt()).isEqualTo(Instant.parse("2026-11-19T10:00:00Z"));
    assertThat(items.get(0).metadata()).containsEntry("author", "Ann");
    assertThat(items.get(1).publishedAt()).isEqualTo(Instant.parse("2026-11-18T08:00:00Z"));
    assertThat(items.get(1).body()).isEqualTo("A summary");
  }

  @Test
  void rdfWithTheEventModulesStartDate() throws Exception {
    List<RawItem> items = parse("rdf.xml", "application/rdf+xml", "https://events.example/rss");
    assertThat(items)
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.title()).isEqualTo("Jazz night");
              assertThat(i.eventAt()).isEqualTo(Instant.parse("2026-12-05T19:00:00Z"));
              assertThat(i.publishedAt()).isEqualTo(Instant.parse("2026-11-15T12:00:00Z"));
            });
  }

  @Test
  void jsonFeedWithRelativeUrlsNumericIdsAndModifiedDates() throws Exception {
    List<RawItem> items = parse("feed.json", "application/feed+json", "https://json.example/feed");
    assertThat(items).hasSize(2);
    assertThat(items.get(0).url()).isEqualTo("https://json.example/posts/2");
    assertThat(items.get(0).metadata()).containsEntry("categories", "a, b");
    assertThat(items.get(1).sourceId()).isEqualTo("1");
    assertThat(items.get(1).contentType()).isEqualTo("text/plain");
    assertThat(items.get(1).publishedAt()).isEqualTo(Instant.parse("2026-11-10T10:00:00Z"));
  }

  @Test
  void aWrongDeclaredCharsetDefersToTheDocumentsOwnDeclaration() throws Exception {
    List<RawItem> items =
        parse("wrong-charset.xml", "text/xml; charset=ISO-8859-1", "https://w.example/rss");
    assertThat(items.get(0).title()).isEqualTo("Crème brûlée night");
  }

  @Test
  void duplicateGuidsAreBothReadTheFetcherKeepsTheFirst() throws Exception {
    assertThat(parse("duplicate-guids.xml", "application/rss+xml", "https://d.example/"))
        .extracting(RawItem::sourceId)
        .containsExactly("same", "same", "other");
  }

  @Test
  void malformedXmlAndJsonFailAsParseErrorsWithAReason() {
    assertThatThrownBy(() -> parse("malformed.xml", "application/rss+xml", "https://x.example/"))
        .isInstanceOfSatisfying(
            FetchFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ErrorKind.PARSE);
              assertThat(f.getMessage()).startsWith("not a readable RSS/Atom/RDF feed");
            });
    assertThatThrownBy(
            () ->
                feed.parse(
                    "{\"items\": [".getBytes(), "application/json", URI.create("https://x/")))
        .isInstanceOfSatisfying(
            FetchFailure.class, f -> assertThat(f.getMessage()).startsWith("not valid JSON"));
    assertThatThrownBy(
            () ->
                feed.parse(
                    "<html><body>hi</body></html>".getBytes(),
                    "text/html",
                    URI.create("https://x/")))
        .isInstanceOf(FetchFailure.class);
  }

  @Test
  void datesAreReadAsWrittenIncludingFormsRfc822ReadersGetWrong() throws Exception {
    // as DocumentConnector hands them on: dates that cannot be one dropped
    List<RawItem> items =
        WebDates.plausibleDates(
            parse("dates-rss.xml", "application/rss+xml", "https://dates.example/"),
            Instant.parse("2026-11-24T12:00:00Z"));
    assertThat(items)
        .extracting(RawItem::publishedAt)
        .containsExactly(
            Instant.parse("2026-02-16T09:57:56.488907Z"), // not 10:06 (micros read as millis)
            Instant.parse("2026-02-17T22:36:36Z"),
            null, // Hugo's Mon, 01 Jan 0001 means "no date", not 0000-12-30
            Instant.parse("2026-02-17T22:36:36Z"),
            Instant.parse("2026-02-17T17:36:36Z"),
            Instant.parse("2026-02-15T08:00:00Z"),
            null); // year 9999 is a placeholder
  }

  @Test
  void atomDatesOnlyDatesAndFractionsBeyondMilliseconds() throws Exception {
    List<RawItem> items = parse("dates-atom.xml", "application/atom+xml", "https://atom.example/");
    assertThat(items)
        .extracting(RawItem::publishedAt)
        .containsExactly(
            Instant.parse("2023-11-15T00:00:00Z"), Instant.parse("2026-02-10T09:00:00.123456789Z"));
  }
}
