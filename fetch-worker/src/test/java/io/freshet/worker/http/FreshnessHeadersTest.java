package io.freshet.worker.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FreshnessHeadersTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");

  @Test
  void maxAgeWinsOverExpiresAndNoCacheOrNoStoreMeanNoHint() {
    assertThat(
            FreshnessHeaders.maxAge(
                "public, max-age=600", "Tue, 24 Nov 2026 12:00:00 GMT", null, NOW))
        .isEqualTo(Duration.ofMinutes(10));
    assertThat(FreshnessHeaders.maxAge("max-age=\"120\"", null, null, NOW))
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(FreshnessHeaders.maxAge("no-store", "Tue, 24 Nov 2026 12:00:00 GMT", null, NOW))
        .isNull();
    assertThat(FreshnessHeaders.maxAge("max-age=600, no-cache", null, null, NOW)).isNull();
    assertThat(FreshnessHeaders.maxAge("max-age=0", null, null, NOW)).isNull();
    assertThat(FreshnessHeaders.maxAge("max-age=-5", null, null, NOW)).isNull();
    assertThat(FreshnessHeaders.maxAge("max-age=99999999999999999999", null, null, NOW)).isNull();
  }

  @Test
  void expiresCountsFromTheServersDateOrFromNow() {
    assertThat(
            FreshnessHeaders.maxAge(
                null, "Tue, 24 Nov 2026 12:00:00 GMT", "Tue, 24 Nov 2026 11:00:00 GMT", NOW))
        .isEqualTo(Duration.ofHours(1));
    assertThat(FreshnessHeaders.maxAge(null, "Tue, 24 Nov 2026 12:00:00 GMT", null, NOW))
        .isEqualTo(Duration.ofHours(2));
    assertThat(FreshnessHeaders.maxAge(null, "0", null, NOW)).as("unreadable").isNull();
    assertThat(FreshnessHeaders.maxAge(null, "Mon, 23 Nov 2026 12:00:00 GMT", null, NOW))
        .as("already past")
        .isNull();
  }

  @Test
  void linkHeadersGiveTheFirstTargetOfARelation() {
    List<String> headers =
        List.of(
            "<https://example.org/a,b>; rel=\"alternate\", <https://hub.example/>; rel=\"hub\"",
            "<https://example.org/feed>; title=\"x; y\"; rel=\"self hub\"");
    assertThat(LinkHeader.first(headers, "hub")).isEqualTo("https://hub.example/");
    assertThat(LinkHeader.first(headers, "self")).isEqualTo("https://example.org/feed");
    assertThat(LinkHeader.first(headers, "next")).isNull();
    assertThat(LinkHeader.first(List.of("garbage, <unterminated"), "hub")).isNull();
  }

  @Test
  void retryAfterIsReadAtMostAWeekAhead() {
    assertThat(RetryAfter.parse("Fri, 31 Dec 9999 23:59:59 GMT", NOW))
        .isEqualTo(NOW.plus(Duration.ofDays(7)));
    assertThat(RetryAfter.parse("999999999", NOW)).isEqualTo(NOW.plus(Duration.ofDays(7)));
    assertThat(RetryAfter.parse("120", NOW)).isEqualTo(NOW.plusSeconds(120));
  }
}
