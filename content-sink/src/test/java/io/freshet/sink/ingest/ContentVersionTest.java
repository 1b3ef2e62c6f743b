package io.freshet.sink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.freshet.schemas.avro.ContentFetched;
import io.freshet.sink.testing.ContentEvents;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the sink refuses as poison, and what it stores in place of what PostgreSQL cannot hold. */
class ContentVersionTest {

  private static final Instant T = Instant.parse("2026-11-03T00:00:00Z");
  private static final Duration RETENTION = Duration.ofDays(90);

  @Test
  void nulCharactersBecomeTheReplacementCharacterAndTheHashStays() {
    ContentFetched e = ContentEvents.item("src-1", "a\u0000b", 1, T);
    e.setBody("x\u0000y");
    e.setMetadata(Map.of("k\u0000", "v\u0000"));

    ContentVersion v = ContentVersion.of(e, RETENTION);

    assertThat(v.itemId()).isEqualTo("a\uFFFDb");
    assertThat(v.body()).isEqualTo("x\uFFFDy");
    assertThat(v.metadata()).containsExactly(Map.entry("k\uFFFD", "v\uFFFD"));
    assertThat(v.contentHash()).isEqualTo(e.getContentHash());
  }

  @Test
  void anItemIdTooLongForTheUniqueIndexIsPoisonNamingItsSize() {
    // 800 three-byte characters: 2,400 bytes, plus the source id's 5: past the limit
    ContentFetched e = ContentEvents.item("src-1", "€".repeat(800), 1, T);

    assertThatThrownBy(() -> ContentVersion.of(e, RETENTION))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "source_id and item_id together are 2405 bytes of UTF-8; at most 2400");
  }

  @Test
  void idsLongerThanAnyFreshetMakesArePoisonNamingTheField() {
    ContentFetched request = ContentEvents.item("src-1", "a", 1, T);
    request.setRequestId("r".repeat(257));
    ContentFetched tenant = ContentEvents.item("src-1", "a", 1, T);
    tenant.setTenantId("t".repeat(257));

    assertThatThrownBy(() -> ContentVersion.of(request, RETENTION))
        .hasMessageStartingWith("request_id is 257 characters, at most 256");
    assertThatThrownBy(() -> ContentVersion.of(tenant, RETENTION))
        .hasMessageStartingWith("tenant_id is 257 characters, at most 256");
    assertThatThrownBy(
            () -> ContentVersion.of(ContentEvents.item("s".repeat(300), "a", 1, T), RETENTION))
        .hasMessageStartingWith("source_id is 300 characters, at most 256");
  }

  @Test
  void theKeyIsMeasuredAsStoredWithItsNulCharactersReplaced() {
    // 2,391 bytes as sent; each U+0000 becomes three bytes of U+FFFD when stored: 2,401
    ContentFetched e = ContentEvents.item("src-1", "x".repeat(2_381) + "\u0000".repeat(5), 1, T);

    assertThatThrownBy(() -> ContentVersion.of(e, RETENTION))
        .hasMessageStartingWith("source_id and item_id together are 2401 bytes");
  }

  @Test
  void theLongestKeyThatFitsIsStored() {
    ContentFetched e = ContentEvents.item("src-1", "x".repeat(2_395), 1, T);

    assertThat(ContentVersion.of(e, RETENTION).itemId()).hasSize(2_395);
  }

  @Test
  void utf8LengthCountsLikeTheEncoder() {
    for (String s : new String[] {"", "ascii", "é", "€uro", "😀 emoji", "mixed é € 😀 x"}) {
      assertThat(ContentVersion.utf8Length(s))
          .as(s)
          .isEqualTo(s.getBytes(StandardCharsets.UTF_8).length);
    }
  }
}
