package io.freshet.worker.connector.feed;

import static org.assertj.core.api.Assertions.assertThat;

import com.rometools.rome.io.impl.XmlFixerReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link EntityFixer} gives what Rome's {@link XmlFixerReader} reads out, character for character.
 */
class EntityFixerTest {

  /** What Rome's reader reads out of {@code s}, one character per call as a SAX parser's reads. */
  private static String rome(String s) throws IOException {
    try (Reader reader = new XmlFixerReader(new StringReader(s))) {
      StringBuilder out = new StringBuilder();
      char[] chunk = new char[8192];
      int n;
      while ((n = reader.read(chunk, 0, chunk.length)) > 0) {
        out.append(chunk, 0, n);
      }
      return out.toString();
    }
  }

  @Test
  void rewritesNamedEntitiesAndBareAmpersandsAsRomeDoes() throws IOException {
    for (String s :
        List.of(
            "<a>caf&eacute; &amp; bar &nbsp;&frac14;&sup2; &#233; &apos; &unknown; & x&</a>",
            "  \n<!-- c --> <!-- d --><?xml version=\"1.0\"?><rss/>",
            "<![CDATA[a & b &nbsp; ]]> & <![CDATA[ ]]]> & ]]> &amp",
            "<!-x",
            "<!--",
            "   ",
            "",
            "text first & then",
            "<t&x>&&amp;&<b>")) {
      assertThat(EntityFixer.fix(s)).as("[%s]", s).isEqualTo(rome(s));
    }
  }

  @Test
  void sameAsRomeOnTheTestDocuments() throws IOException, URISyntaxException {
    Path resources = Path.of(EntityFixerTest.class.getResource("/feeds").toURI()).getParent();
    List<Path> documents;
    try (Stream<Path> files = Files.walk(resources)) {
      documents =
          files
              .filter(Files::isRegularFile)
              .filter(p -> p.toString().endsWith(".xml") || p.toString().endsWith(".rss"))
              .toList();
    }
    assertThat(documents).hasSizeGreaterThan(50);
    for (Path p : documents) {
      String text = new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
      assertThat(EntityFixer.fix(text)).as("%s", p).isEqualTo(rome(text));
    }
  }

  private static final String[] PIECES = {
    "&",
    "&amp;",
    "&nbsp;",
    "&eacute;",
    "&frac12;",
    "&#38;",
    "&#x26;",
    "&bogus;",
    "&;",
    ";",
    "<",
    ">",
    "/",
    " ",
    "\n",
    "\t",
    "<!--",
    "-->",
    "-",
    "!",
    "[",
    "]",
    "]]>",
    "<![CDATA[",
    "<item>",
    "</item>",
    "<a href=\"x?a=1&b=2\">",
    "text",
    "é",
    "#",
    "x1",
    "?",
    "<?xml version=\"1.0\"?>"
  };

  @Test
  void sameAsRomeOnRandomMarkup() throws IOException {
    Random random = new Random(20261129);
    for (int n = 0; n < 30_000; n++) {
      StringBuilder s = new StringBuilder();
      int pieces = random.nextInt(40);
      for (int k = 0; k < pieces; k++) {
        s.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String text = s.toString();
      assertThat(EntityFixer.fix(text)).as("[%s]", text).isEqualTo(rome(text));
    }
  }
}
