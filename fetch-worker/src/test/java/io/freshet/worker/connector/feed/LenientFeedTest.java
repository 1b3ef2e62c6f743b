package io.freshet.worker.connector.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.worker.items.RawItem;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Feeds every feed reader reads but strict XML rejects: read after healing, {@code ok}, the fixes
 * told to the observer; and the documents that must stay harmless on that path (XXE, billion
 * laughs).
 */
class LenientFeedTest {

  private final List<String> fixes = new ArrayList<>();
  private final FeedConnector feed = new FeedConnector(fixes::addAll);

  private List<RawItem> parse(String name, String contentType) throws Exception {
    return feed.parse(FeedCorpusTest.read(name), contentType, URI.create("https://f.example/"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "lenient-entities.xml      | application/rss+xml | html_entities        | Q&A: what:s new…",
        "lenient-control-char.xml  | application/rss+xml | control_characters   | Startof text",
        "lenient-junk-prolog.xml   | application/rss+xml | junk_before_prolog   | After the junk",
        "lenient-doctype-091.xml   | text/xml            | doctype              | Café news",
        "lenient-after-root.xml    | application/rss+xml | content_after_root   | Before the tracker",
        "lenient-cp1252-as-utf8.xml| application/rss+xml | encoding             | Café – crème brûlée",
        "lenient-unclosed-br.xml   | application/rss+xml | unclosed_html        | Line break",
        "lenient-undeclared-prefix.xml | application/rss+xml | undeclared_prefixes | Undeclared prefix",
        "lenient-twice.xml         | application/rss+xml | content_after_root   | Post 0",
      })
  void aFeedStrictXmlRejectsIsReadAfterHealing(
      String file, String contentType, String fix, String firstTitle) throws Exception {
    List<RawItem> items = parse(file, contentType);

    assertThat(items).isNotEmpty();
    assertThat(items.getFirst().title()).isEqualTo(firstTitle);
    assertThat(fixes).contains(fix);
  }

  @Test
  void aReplacementCharacterWrittenInValidUtf8IsTextNotAnEncodingToHeal() throws Exception {
    byte[] body =
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>t</title>"
                + "<item><guid>a</guid><title>Caf\u00e9 \uFFFD as written</title></item>"
                + "</channel></rss>")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    List<RawItem> items = feed.parse(body, "application/rss+xml", URI.create("https://f.example/"));
    assertThat(items.getFirst().title()).isEqualTo("Caf\u00e9 \uFFFD as written");
    assertThat(fixes).isEmpty();
  }

  @Test
  void aByteThatIsNotUtf8InAUtf8FeedIsReadAsWindows1252AndTheRestAsUtf8() throws Exception {
    byte[] head =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\"><channel><title>t</title><item><guid>a</guid><title>Caf"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] tail =
        " cr\u00e8me</title></item></channel></rss>"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] body = new byte[head.length + 1 + tail.length];
    System.arraycopy(head, 0, body, 0, head.length);
    body[head.length] = (byte) 0xe9; // é in windows-1252, malformed in UTF-8
    System.arraycopy(tail, 0, body, head.length + 1, tail.length);
    List<RawItem> items = feed.parse(body, "application/rss+xml", URI.create("https://f.example/"));
    assertThat(items.getFirst().title()).isEqualTo("Caf\u00e9 cr\u00e8me");
    assertThat(fixes).containsExactly("encoding");
  }

  @Test
  void entitiesAreHealedOutsideCdataOnlyAndAnUnknownOneStaysText() throws Exception {
    List<RawItem> items = parse("lenient-entities.xml", "application/rss+xml");
    assertThat(items.get(0).url()).isEqualTo("https://e.example/1?a=1&b=2");
    // CDATA is text: its & stays one (Rome's healer writes its &nbsp; as &#160;, the same HTML)
    assertThat(items.get(0).body()).contains("Tom & Jerry &#160;stay as written");
    assertThat(items.get(1).title()).isEqualTo("An entity nobody defines: &zzunknown;");
    assertThat(fixes).contains("bare_ampersands");
  }

  @Test
  void aWellFormedFeedNeedsNoHealing() throws Exception {
    parse("rss20.xml", "application/rss+xml");
    assertThat(fixes).isEmpty();
  }

  @Test
  void externalEntitiesAreNeverResolvedOnTheLenientPath() throws Exception {
    List<RawItem> items = parse("xxe.xml", "application/rss+xml");

    assertThat(items)
        .singleElement()
        .satisfies(
            i -> {
              assertThat(i.title()).isEqualTo("&xxe;");
              assertThat(i.body()).isEqualTo("&remote;");
            });
    assertThat(items.toString()).doesNotContain("root:");
    assertThat(fixes).contains("doctype");
  }

  @Test
  void entityExpansionNeverHappensOnTheLenientPath() throws Exception {
    List<RawItem> items = parse("billion-laughs.xml", "application/rss+xml");

    // the entity stays its name: nothing was expanded (a billion "lol"s would be 3 GB)
    assertThat(items).singleElement().satisfies(i -> assertThat(i.title()).isEqualTo("&lol9;"));
  }
}
