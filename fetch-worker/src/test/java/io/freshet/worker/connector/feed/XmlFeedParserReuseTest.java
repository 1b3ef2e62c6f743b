package io.freshet.worker.connector.feed;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.worker.http.FetchFailure;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.jdom2.input.sax.SAXEngine;
import org.junit.jupiter.api.Test;

/**
 * A parse thread keeps its SAX engine from one document to the next: every document must read as it
 * reads on a thread that parses nothing else — after well-formed feeds, after ones that fail, after
 * ones that needed healing — and the kept engine must parse with the settings of a new one.
 */
class XmlFeedParserReuseTest {

  private static final URI BASE = URI.create("https://feeds.example/feed");

  /** A document's items and hints, or its failure's message: what a parse gives. */
  private record Outcome(String what) {}

  private static Outcome read(byte[] body) {
    try {
      return new Outcome(
          new XmlFeedParser(ParseObserver.NONE).read(body, "application/xml", BASE).toString());
    } catch (FetchFailure f) {
      return new Outcome("failed: " + f.kind() + " " + f.getMessage());
    }
  }

  @Test
  void everyDocumentReadsOnAThreadThatParsedOthersAsOnAFreshThread() throws Exception {
    List<byte[]> documents = documents();
    assertThat(documents).hasSizeGreaterThan(150);
    List<Outcome> alone = new ArrayList<>();
    for (byte[] document : documents) {
      alone.add(onItsOwnThread(() -> read(document)));
    }
    assertThat(alone).anyMatch(o -> o.what().startsWith("failed"));
    assertThat(alone).anyMatch(o -> !o.what().startsWith("failed"));

    ExecutorService one = Executors.newSingleThreadExecutor();
    try {
      List<Outcome> inTurn =
          one.submit(
                  () -> {
                    List<Outcome> out = new ArrayList<>();
                    // twice over, so every document also follows every other kind of document
                    for (int round = 0; round < 2; round++) {
                      for (byte[] document : documents) {
                        out.add(read(document));
                      }
                    }
                    return out;
                  })
              .get();
      assertThat(inTurn.subList(0, documents.size())).isEqualTo(alone);
      assertThat(inTurn.subList(documents.size(), inTurn.size())).isEqualTo(alone);
    } finally {
      one.shutdownNow();
    }
  }

  @Test
  void theKeptEngineParsesWithRomesSettingsAfterEveryDocument() throws Exception {
    byte[] rss = FeedCorpusTest.read("rss20.xml");
    byte[] atom = FeedCorpusTest.read("atom.xml");
    List<Boolean> expands =
        onItsOwnThread(
            () -> {
              List<Boolean> seen = new ArrayList<>();
              for (byte[] document : List.of(rss, atom, rss)) {
                read(document);
                SAXEngine engine = XmlFeedParser.threadEngine();
                seen.add(engine == null ? null : engine.getExpandEntities());
              }
              return seen;
            });
    // Rome parses with entity expansion off; JDOM's handler turns it on when it resets
    assertThat(expands).containsExactly(false, false, false);
  }

  @Test
  void anEngineWhoseParseFailedIsNotKept() throws Exception {
    byte[] broken = "<rss version=\"2.0\"><channel><item>".getBytes(StandardCharsets.UTF_8);
    byte[] rss = FeedCorpusTest.read("rss20.xml");
    List<Object> engines =
        onItsOwnThread(
            () -> {
              read(rss);
              SAXEngine first = XmlFeedParser.threadEngine();
              read(broken);
              SAXEngine afterFailure = XmlFeedParser.threadEngine();
              read(rss);
              return java.util.Arrays.asList(first, afterFailure, XmlFeedParser.threadEngine());
            });
    // (healing the broken document and parsing it again may keep a new engine)
    assertThat(engines.get(0)).isNotNull();
    assertThat(engines.get(1)).isNotSameAs(engines.get(0));
    assertThat(engines.get(2)).isNotNull().isNotSameAs(engines.get(0));
  }

  @Test
  void aDocumentLargerThanWhatIsKeptGetsAnEngineOfItsOwn() throws Exception {
    StringBuilder big = new StringBuilder("<rss version=\"2.0\"><channel><title>t</title>");
    big.append("<item><guid>a</guid><title>A</title><description>");
    big.append("x".repeat(XmlFeedParser.REUSED_UP_TO_CHARS));
    big.append("</description></item></channel></rss>");
    byte[] large = big.toString().getBytes(StandardCharsets.UTF_8);
    byte[] rss = FeedCorpusTest.read("rss20.xml");
    List<Object> engines =
        onItsOwnThread(
            () -> {
              read(rss);
              SAXEngine kept = XmlFeedParser.threadEngine();
              Outcome outcome = read(large);
              return java.util.Arrays.asList(kept, XmlFeedParser.threadEngine(), outcome);
            });
    assertThat(engines.get(1)).isSameAs(engines.get(0));
    assertThat(((Outcome) engines.get(2)).what()).contains("sourceId=a");
  }

  private static <T> T onItsOwnThread(java.util.concurrent.Callable<T> task)
      throws InterruptedException, ExecutionException {
    ExecutorService fresh = Executors.newSingleThreadExecutor();
    try {
      return fresh.submit(task).get();
    } finally {
      fresh.shutdownNow();
    }
  }

  /** Every XML document of the tests' feeds, the real-web corpus and the hostile documents. */
  private static List<byte[]> documents() throws IOException, URISyntaxException {
    List<byte[]> out = new ArrayList<>();
    for (String dir : List.of("/feeds", "/corpus")) {
      Path path = Path.of(XmlFeedParserReuseTest.class.getResource(dir).toURI());
      try (Stream<Path> files = Files.list(path)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".xml")).sorted().toList()) {
          try (InputStream in = Files.newInputStream(file)) {
            out.add(in.readAllBytes());
          }
        }
      }
    }
    return out;
  }
}
