package io.freshet.sink.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class PageCursorTest {

  @Test
  void aCursorSurvivesTheRoundTripToTheMicrosecondWithAnyKey() {
    var cursor = new PageCursor(Instant.parse("2026-11-01T10:15:30.123456Z"), "src-1:1700|x");

    var back = PageCursor.decode(cursor.encode());

    assertThat(back).isEqualTo(cursor);
    assertThat(cursor.encode()).doesNotContain("src-1");
  }

  @Test
  void instantsBeforeTheEpochRoundTripToo() {
    var cursor = new PageCursor(Instant.parse("1969-12-31T23:59:59.999999Z"), "42");

    assertThat(PageCursor.decode(cursor.encode())).isEqualTo(cursor);
    assertThat(PageCursor.decode(cursor.encode()).id()).isEqualTo(42L);
  }

  @Test
  void anythingElseIsRefused() {
    assertThatThrownBy(() -> PageCursor.decode("garbage!"))
        .hasMessage("is not a cursor this API issued");
    assertThatThrownBy(() -> PageCursor.decode("MnwxfDI")) // "2|1|2": another version
        .hasMessage("is not a cursor this API issued");
    assertThatThrownBy(() -> new PageCursor(Instant.EPOCH, "abc").id())
        .hasMessage("is not a cursor of this list");
  }

  /** A tampered cursor must be refused here, not reach PostgreSQL and fail there with a 500. */
  @Test
  void aTamperedCursorIsRefusedBeforeTheDatabaseSeesIt() {
    assertThatThrownBy(() -> PageCursor.decode(plain("1|" + Long.MAX_VALUE + "|1")))
        .hasMessage("is not a cursor this API issued"); // year 294247: beyond timestamptz
    assertThatThrownBy(() -> PageCursor.decode(plain("1|1700000000000000|a" + (char) 0 + "b")))
        .hasMessage("is not a cursor this API issued");
    assertThatThrownBy(() -> PageCursor.decode(plain("1|1700000000000000|" + "9".repeat(5000))))
        .hasMessage("is not a cursor this API issued");
    assertThatThrownBy(() -> PageCursor.decode(plain("1|1700000000000000|1 OR 1=1")).id())
        .hasMessage("is not a cursor of this list");
  }

  private static String plain(String text) {
    return java.util.Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
