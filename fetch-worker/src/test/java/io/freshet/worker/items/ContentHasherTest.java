package io.freshet.worker.items;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.schemas.avro.ItemNovelty;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContentHasherTest {

  private static RawItem item(String id, String url, String title, String body, Instant published) {
    return new RawItem(id, url, title, body, "text/html", published, null, false, Map.of());
  }

  @Test
  void whitespaceMarkupTrackingParametersAndPublicationDatesDoNotChangeTheHash() {
    String a =
        ContentHasher.hash(
            item(
                "1",
                "https://x.example/a?id=3",
                "Title",
                "<p>Hello   world</p>",
                Instant.parse("2026-01-01T00:00:00Z")));
    String b =
        ContentHasher.hash(
            item(
                "1",
                "HTTPS://X.example:443/a?id=3&utm_source=rss&fbclid=zz#top",
                " Title\n",
                "<div>\n  Hello world\n</div>",
                Instant.parse("2026-02-02T00:00:00Z")));
    assertThat(a).isEqualTo(b).hasSize(64).matches("[0-9a-f]+");
  }

  @Test
  void theHashIsSha256OfTheNormalisedPartsJoinedByUnitSeparators() {
    Instant event = Instant.parse("2026-12-01T18:00:00Z");
    for (RawItem item :
        List.of(
            item(
                "1",
                "https://x.example/a?utm_source=rss",
                "<b>Café</b> night",
                "<p>Hi 👋</p>",
                null),
            item("2", null, null, null, null),
            item("3", "https://x.example/b", "lone \ud83d", "body \udc4b end", null),
            new RawItem(
                "4", null, "T", "plain\n text", "text/plain", null, event, true, Map.of()))) {
      String body =
          item.body() == null
              ? ""
              : item.contentType().contains("html")
                  ? Text.stripTags(item.body())
                  : Text.collapse(item.body());
      String joined =
          String.join(
              "\u001f",
              item.title() == null || Text.plain(item.title()) == null
                  ? ""
                  : Text.plain(item.title()),
              item.url() == null ? "" : Urls.canonical(item.url()),
              body,
              item.eventAt() == null ? "" : item.eventAt().toString());
      assertThat(ContentHasher.hash(item)).isEqualTo(ContentHasher.sha256(joined));
    }
  }

  @Test
  void aChangedBodyTitleOrLinkChangesTheHash() {
    String base = ContentHasher.hash(item("1", "https://x/a", "T", "body", null));
    assertThat(ContentHasher.hash(item("1", "https://x/a", "T", "body!", null))).isNotEqualTo(base);
    assertThat(ContentHasher.hash(item("1", "https://x/a", "T2", "body", null))).isNotEqualTo(base);
    assertThat(ContentHasher.hash(item("1", "https://x/b", "T", "body", null))).isNotEqualTo(base);
  }

  @Test
  void idsComeFromTheSourceElseTheCanonicalLinkElseTitleAndDate() {
    assertThat(ItemIdentity.of(item(" guid-1 ", "https://x/a", "T", null, null)))
        .isEqualTo("guid-1");
    assertThat(ItemIdentity.of(item(null, "https://X/a?utm_medium=feed", "T", null, null)))
        .isEqualTo("https://x/a");
    String derived = ItemIdentity.of(item(null, null, "T", null, Instant.EPOCH));
    assertThat(derived).startsWith("sha256:");
    assertThat(ItemIdentity.of(item(null, null, "T", null, Instant.EPOCH))).isEqualTo(derived);
  }

  @Test
  void theSeenDigestTellsAddedChangedAndSeenAndSurvivesTheCursorRoundTrip() {
    SeenDigest empty = SeenDigest.parse(null);
    assertThat(empty.noveltyOf("a", "00ff")).isEqualTo(ItemNovelty.added);
    String hashA = ContentHasher.sha256("a1");
    String hashB = ContentHasher.sha256("b1");
    SeenDigest after =
        empty.after(
            List.of(new SeenDigest.Entry("a", hashA), new SeenDigest.Entry("b", hashB)), 64);
    SeenDigest read = SeenDigest.parse(after.encode());
    assertThat(read.size()).isEqualTo(2);
    assertThat(read.noveltyOf("a", hashA)).isEqualTo(ItemNovelty.seen);
    assertThat(read.noveltyOf("b", ContentHasher.sha256("b2"))).isEqualTo(ItemNovelty.changed);
    assertThat(read.noveltyOf("c", hashA)).isEqualTo(ItemNovelty.added);
    assertThat(SeenDigest.parse("garbage").size()).isZero();
    assertThat(SeenDigest.parse("1:!!!").size()).isZero();
  }

  @Test
  void theDigestIsBoundedKeepingTheLatestReadFirst() {
    SeenDigest digest = SeenDigest.empty();
    for (int round = 0; round < 5; round++) {
      var read =
          java.util.stream.IntStream.range(0, 30)
              .mapToObj(i -> new SeenDigest.Entry("r" + i, ContentHasher.sha256("x" + i)))
              .toList();
      digest = digest.after(read, 40);
    }
    digest = digest.after(List.of(new SeenDigest.Entry("new", ContentHasher.sha256("n"))), 40);
    assertThat(digest.size()).isEqualTo(31);
    assertThat(digest.encode().length()).isLessThan(40 * 16 * 4 / 3 + 8);
  }
}
