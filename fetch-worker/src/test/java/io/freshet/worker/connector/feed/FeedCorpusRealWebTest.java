package io.freshet.worker.connector.feed;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.FetchStatus;
import io.freshet.testsupport.FeedServer;
import io.freshet.worker.connector.ConnectorOptions;
import io.freshet.worker.fetch.FetchResult;
import io.freshet.worker.fetch.FetchedItem;
import io.freshet.worker.fetch.SourceFetcher;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.items.RawItem;
import io.freshet.worker.testing.FakeTime;
import io.freshet.worker.testing.Requests;
import io.freshet.worker.testing.TestFetchPaths;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The corpus in {@code src/test/resources/corpus}: documents shaped like the feeds of the real web
 * (publishing platforms, feed generators, and the quirks they carry), each with an {@code
 * .expected} file listing its items — id as the worker identifies it, link, title — and their
 * publication dates. Each document is served on loopback and fetched through the worker's own fetch
 * path (HTTP, the feed connector, date plausibility, identity, duplicates dropped), as the
 * fetch-once command does with {@code --all-items}. A document is right when every item and date
 * is; the corpus must be 99 % right, and every miss is listed.
 *
 * <p>Expected file: {@code #} comments, {@code document:} and {@code content-type:} headers, then
 * one line per item, {@code id | url | title | published}; {@code -} is none, {@code ~} an id made
 * from title and date, {@code null} no date, {@code {root}} the loopback server.
 */
class FeedCorpusRealWebTest {

  /** The fetches' clock: dates more than a day after it are no dates. */
  static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

  private static final double GOAL = 0.99;

  private static FeedServer server;

  @BeforeAll
  static void start() {
    server = FeedServer.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  record Expected(String id, String url, String title, Instant published) {}

  record Document(String name, String file, String contentType, List<Expected> items) {}

  @Test
  void theCorpusParsesToTheRightItemsAndDates() throws Exception {
    List<Document> corpus = corpus();
    FakeTime time = new FakeTime(NOW);
    List<String> misses = new ArrayList<>();
    int right = 0;
    int itemCount = 0;
    try (HttpFetcher http = TestFetchPaths.fetcher(time, TestFetchPaths.largeBodySettings())) {
      SourceFetcher fetcher =
          TestFetchPaths.sourceFetcher(
              http, new ConnectorOptions(0, Duration.ofDays(30), null, true), time);
      for (Document document : corpus) {
        List<String> wrong = check(document, fetcher);
        itemCount += document.items().size();
        if (wrong.isEmpty()) {
          right++;
        } else {
          misses.add(document.name() + ":\n      " + String.join("\n      ", wrong));
        }
      }
    }
    double share = (double) right / corpus.size();
    System.out.printf(
        "corpus: %d/%d documents right (%.1f %%), %d items%n",
        right, corpus.size(), 100 * share, itemCount);
    misses.forEach(m -> System.out.println("  miss " + m));
    assertThat(corpus).hasSizeGreaterThanOrEqualTo(100);
    assertThat(share)
        .as("share of the corpus read right; misses:%n  %s", String.join("\n  ", misses))
        .isGreaterThanOrEqualTo(GOAL);
  }

  private static List<String> check(Document document, SourceFetcher fetcher) throws Exception {
    String path = "/corpus/" + document.file();
    var response = aResponse().withStatus(200).withBody(resource(document.file()));
    if (!document.contentType().isBlank()) {
      response.withHeader("Content-Type", document.contentType());
    }
    server.stub(get(urlPathEqualTo(path)).willReturn(response));
    // unlimited: every item of the document, whatever its age, as with --all-items
    FetchResult result = fetcher.fetch(Requests.feed(server.url(path), NOW).build(), true);
    List<String> wrong = new ArrayList<>();
    if (result.completed().getStatus() != FetchStatus.ok) {
      wrong.add(
          result.completed().getStatus()
              + " ("
              + result.completed().getErrorKind()
              + "): "
              + result.completed().getErrorMessage());
      return wrong;
    }
    List<FetchedItem> items = result.items();
    if (items.size() != document.items().size()) {
      wrong.add(document.items().size() + " items expected, " + items.size() + " read");
    }
    for (int i = 0; i < Math.min(items.size(), document.items().size()); i++) {
      Expected expected = document.items().get(i);
      FetchedItem item = items.get(i);
      RawItem raw = item.raw();
      String at = "item " + i + " ";
      if (expected.id().equals("~")) {
        if (raw.sourceId() != null || raw.url() != null || !item.itemId().startsWith("sha256:")) {
          wrong.add(at + "id: expected one from title and date, was " + item.itemId());
        }
      } else if (!expected.id().equals(item.itemId())) {
        wrong.add(at + "id: expected " + expected.id() + ", was " + item.itemId());
      }
      if (!Objects.equals(expected.url(), raw.url())) {
        wrong.add(at + "url: expected " + expected.url() + ", was " + raw.url());
      }
      if (!Objects.equals(expected.title(), raw.title())) {
        wrong.add(at + "title: expected \"" + expected.title() + "\", was \"" + raw.title() + "\"");
      }
      if (!Objects.equals(expected.published(), raw.publishedAt())) {
        wrong.add(
            at + "published: expected " + expected.published() + ", was " + raw.publishedAt());
      }
    }
    return wrong;
  }

  static List<Document> corpus() throws IOException, URISyntaxException {
    URL dir = FeedCorpusRealWebTest.class.getResource("/corpus");
    assertThat(dir).as("the corpus directory").isNotNull();
    List<Document> documents = new ArrayList<>();
    try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".expected")).sorted().toList()) {
        documents.add(document(file));
      }
    }
    return documents;
  }

  private static Document document(Path expected) throws IOException {
    String name = expected.getFileName().toString().replace(".expected", "");
    String file = null;
    String contentType = null;
    List<Expected> items = new ArrayList<>();
    String root = server.url("");
    for (String line : Files.readAllLines(expected, StandardCharsets.UTF_8)) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("document:")) {
        file = line.substring("document:".length()).strip();
      } else if (line.startsWith("content-type:")) {
        contentType = line.substring("content-type:".length()).strip();
      } else {
        String[] f = line.replace("{root}", root).split(" \\| ", -1);
        assertThat(f).as("%s: %s", expected, line).hasSize(4);
        items.add(
            new Expected(
                f[0].strip(),
                none(f[1]),
                none(f[2]),
                f[3].strip().equals("null") ? null : Instant.parse(f[3].strip())));
      }
    }
    assertThat(file).as("%s names its document", expected).isNotNull();
    return new Document(name, file, contentType == null ? "" : contentType, items);
  }

  private static String none(String field) {
    return field.equals("-") ? null : field;
  }

  private static byte[] resource(String file) throws IOException {
    try (InputStream in = FeedCorpusRealWebTest.class.getResourceAsStream("/corpus/" + file)) {
      return Objects.requireNonNull(in, file).readAllBytes();
    }
  }
}
