package io.freshet.worker.items;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link Text#collapse} and {@link Text#stripTags} are hand-written passes that must give exactly
 * what the regular expressions they replaced gave — every stored content hash depends on it. The
 * expressions are kept here as the reference and both are compared on the test documents and on
 * random markup made of the awkward pieces (unclosed tags and comments, script blocks in upper case
 * or inside comments, `<scriptx>`, Unicode look-alikes of ASCII letters, every kind of space).
 */
class TextTest {

  private static final Pattern SPACE = Pattern.compile("[\\s\\u00a0\\u200b]+");
  private static final Pattern SCRIPTS =
      Pattern.compile("(?is)<(script|style)\\b[^>]*>.*?</\\1\\s*>");
  private static final Pattern TAGS = Pattern.compile("(?s)<!--.*?-->|<[^>]*>");

  private static String referenceCollapse(String s) {
    return SPACE.matcher(s).replaceAll(" ").trim();
  }

  private static String referenceStripTags(String html) {
    if (html.isEmpty()) {
      return "";
    }
    String text = html;
    if (text.indexOf('<') >= 0) {
      text = TAGS.matcher(SCRIPTS.matcher(text).replaceAll(" ")).replaceAll(" ");
    }
    if (text.indexOf('&') >= 0) {
      text = org.jsoup.parser.Parser.unescapeEntities(text, false);
    }
    return referenceCollapse(text);
  }

  @Test
  void examples() {
    assertThat(Text.stripTags("<p>Hello \n <b>world</b></p>")).isEqualTo("Hello world");
    assertThat(Text.stripTags("a<script type=x>var a = '<b>';</SCRIPT >b")).isEqualTo("a b");
    assertThat(Text.stripTags("a<!-- <b>x</b> -->b &amp; c")).isEqualTo("a b & c");
    assertThat(Text.stripTags("1 < 2 and no closing")).isEqualTo("1 < 2 and no closing");
    assertThat(Text.stripTags("<scripts>kept</scripts>")).isEqualTo("kept");
    assertThat(Text.collapse("\u00a0 a \t\u200b b  ")).isEqualTo("a b");
    assertThat(Text.collapse("a b")).isEqualTo("a b");
  }

  @Test
  void sameAsTheRegularExpressionsOnTheTestDocuments() throws IOException {
    List<String> documents = new ArrayList<>();
    for (String name :
        List.of(
            "/feeds/rss20.xml",
            "/feeds/rss091.xml",
            "/feeds/atom.xml",
            "/feeds/rdf.xml",
            "/feeds/feed.json",
            "/feeds/malformed.xml",
            "/feeds/duplicate-guids.xml",
            "/feeds/wrong-charset.xml",
            "/pages/events.html",
            "/calendars/town.ics")) {
      try (InputStream in = TextTest.class.getResourceAsStream(name)) {
        documents.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      }
    }
    for (String document : documents) {
      assertThat(Text.stripTags(document)).isEqualTo(referenceStripTags(document));
      assertThat(Text.collapse(document)).isEqualTo(referenceCollapse(document));
      // and every piece between two '<', the sizes of feed item bodies
      for (int at = document.indexOf('<'); at >= 0; at = document.indexOf('<', at + 1)) {
        String piece = document.substring(at, Math.min(document.length(), at + 300));
        assertThat(Text.stripTags(piece)).as(piece).isEqualTo(referenceStripTags(piece));
      }
    }
  }

  private static final String[] PIECES = {
    "<",
    ">",
    "</",
    "<p>",
    "</p>",
    "<b class=\"x\">",
    "<br/>",
    "<script",
    "<SCRIPT",
    "<Style",
    "<style",
    "</script",
    "</STYLE",
    "</style",
    "<scripts",
    "<script_",
    "<script1",
    "<scriptä",
    "<ſcript",
    "</ſtyle",
    "<ſtyle",
    "<scrıpt",
    "script",
    "style",
    "<!--",
    "-->",
    "--",
    "<!-->",
    "<!",
    "-",
    "!",
    "/",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\u000B",
    "\f",
    "\u00a0",
    "\u200b",
    "\u0001",
    "\u2003",
    "&amp;",
    "&lt;",
    "&gt;",
    "&nbsp;",
    "&#x41;",
    "&",
    ";",
    "a",
    "B",
    "_",
    "1",
    "é",
    "word",
    "Hello",
    new String(Character.toChars(0x1D400)),
    "\"",
    "'",
    "=",
  };

  @Test
  void sameAsTheRegularExpressionsOnRandomMarkup() {
    Random random = new Random(20261123);
    for (int n = 0; n < 30_000; n++) {
      StringBuilder s = new StringBuilder();
      int pieces = random.nextInt(40);
      for (int k = 0; k < pieces; k++) {
        s.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String html = s.toString();
      assertThat(Text.stripTags(html))
          .as("stripTags of [%s]", html)
          .isEqualTo(referenceStripTags(html));
      assertThat(Text.collapse(html))
          .as("collapse of [%s]", html)
          .isEqualTo(referenceCollapse(html));
    }
  }
}
