package io.freshet.scheduler.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CursorsTest {

  private static final Instant AT = Instant.parse("2026-11-22T10:15:30Z");

  @Test
  void newCursorEntriesReplaceOldOnesAndLastFetchAtMoves() {
    String after =
        Cursors.afterSuccess(
            "{\"etag\":\"a\",\"sync_token\":\"s1\",\"last_fetch_at\":\"2026-11-01T00:00:00Z\"}",
            Map.of("etag", "b"),
            AT);

    assertThat(after)
        .isEqualTo(
            "{\"etag\":\"b\",\"sync_token\":\"s1\",\"last_fetch_at\":\"2026-11-22T10:15:30Z\"}");
  }

  @Test
  void notModifiedKeepsTheCursorAndMovesLastFetchAt() {
    assertThat(Cursors.afterSuccess("{\"etag\":\"a\"}", null, AT))
        .isEqualTo("{\"etag\":\"a\",\"last_fetch_at\":\"2026-11-22T10:15:30Z\"}");
  }

  @Test
  void aFirstFetchStartsTheCursor() {
    assertThat(Cursors.afterSuccess("", Map.of(), AT))
        .isEqualTo("{\"last_fetch_at\":\"2026-11-22T10:15:30Z\"}");
  }

  @Test
  void aNulCharacterInACursorIsStoredAsTheReplacementCharacter() {
    // PostgreSQL's jsonb refuses \u0000; the outcome would fail on every retry.
    assertThat(Cursors.afterSuccess("", Map.of("etag", "a\u0000b"), AT))
        .isEqualTo("{\"etag\":\"a\uFFFDb\",\"last_fetch_at\":\"2026-11-22T10:15:30Z\"}")
        .doesNotContain("\\u0000");
  }
}
