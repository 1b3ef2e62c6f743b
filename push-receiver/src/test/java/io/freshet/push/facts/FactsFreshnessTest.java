package io.freshet.push.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FactsFreshnessTest {

  private static final Instant T = Instant.parse("2026-11-29T10:00:00Z");
  private static final FactsFreshness HOUR = new FactsFreshness(Duration.ofHours(1));

  private static FactsFreshness.Stored row(String hub, Instant announced, Instant requested) {
    return new FactsFreshness.Stored(
        "tenant", "https://a.example/feed", false, hub, null, announced, requested);
  }

  @Test
  void theGranularityIsTheCapAtMostATenthOfMaxSilence() {
    assertThat(FactsFreshness.of(Duration.ofHours(1), Duration.ofDays(3)).granularity())
        .isEqualTo(Duration.ofHours(1));
    assertThat(FactsFreshness.of(Duration.ofHours(1), Duration.ofSeconds(30)).granularity())
        .isEqualTo(Duration.ofSeconds(3));
    assertThat(FactsFreshness.of(null, Duration.ofDays(3)).granularity())
        .isEqualTo(FactsFreshness.DEFAULT_CAP);
    assertThat(FactsFreshness.of(Duration.ZERO, Duration.ofDays(3)))
        .isEqualTo(FactsFreshness.EXACT);
    assertThatThrownBy(() -> FactsFreshness.of(Duration.ofSeconds(-1), Duration.ofDays(3)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aRequestWritesWhatChangesOrLagsBeyondTheGranularity() {
    var stored = row(null, null, T);
    String url = "https://a.example/feed";
    assertThat(HOUR.requestWrites(null, "tenant", url, false, T)).as("no row").isTrue();
    assertThat(HOUR.requestWrites(stored, "tenant", url, false, T.plus(Duration.ofHours(1))))
        .as("lags by exactly g")
        .isFalse();
    assertThat(HOUR.requestWrites(stored, "tenant", url, false, T.minusSeconds(5)))
        .as("older")
        .isFalse();
    assertThat(HOUR.requestWrites(stored, "tenant", url, false, T.plusSeconds(3601)))
        .as("lags beyond g")
        .isTrue();
    assertThat(HOUR.requestWrites(stored, "tenant", "https://b.example/", false, T)).isTrue();
    assertThat(HOUR.requestWrites(stored, "other", url, false, T)).isTrue();
    assertThat(HOUR.requestWrites(stored, "tenant", url, true, T)).isTrue();
    assertThat(HOUR.requestWrites(row(null, null, null), "tenant", url, false, T))
        .as("a row only an announcement made")
        .isTrue();
    assertThat(FactsFreshness.EXACT.requestWrites(stored, "tenant", url, false, T.plusMillis(1)))
        .isTrue();
    assertThat(FactsFreshness.EXACT.requestWrites(stored, "tenant", url, false, T)).isFalse();
  }

  @Test
  void anAnnouncementWritesAChangedHubOrSelfAndALaggingTimeOfAHubOnly() {
    String hub = "https://hub.example/";
    var announcing = row(hub, T, T);
    assertThat(HOUR.announcementWrites(null, null, null, T)).as("no row").isTrue();
    assertThat(HOUR.announcementWrites(announcing, hub, null, T.plusSeconds(3600))).isFalse();
    assertThat(HOUR.announcementWrites(announcing, hub, null, T.plusSeconds(3601))).isTrue();
    assertThat(HOUR.announcementWrites(announcing, "https://other.example/", null, T)).isTrue();
    assertThat(HOUR.announcementWrites(announcing, hub, "https://a.example/self", T)).isTrue();
    assertThat(HOUR.announcementWrites(announcing, null, null, T)).as("hub gone").isTrue();
    var silent = row(null, T, T);
    assertThat(HOUR.announcementWrites(silent, null, null, T.plus(Duration.ofDays(30))))
        .as("no hub then, none now: no time to keep")
        .isFalse();
  }

  @Test
  void aNotModifiedWritesOnlyARowWithAHubWhoseTimeLags() {
    String hub = "https://hub.example/";
    assertThat(HOUR.notModifiedWrites(null, T)).isFalse();
    assertThat(HOUR.notModifiedWrites(row(null, T, T), T.plus(Duration.ofDays(1)))).isFalse();
    assertThat(HOUR.notModifiedWrites(row(hub, T, T), T.plusSeconds(3600))).isFalse();
    assertThat(HOUR.notModifiedWrites(row(hub, T, T), T.plusSeconds(3601))).isTrue();
    assertThat(HOUR.notModifiedWrites(row(hub, null, T), T)).isTrue();
  }

  @Test
  void aSourceIsWantedUntilMaxSilencePlusTheGranularity() {
    assertThat(HOUR.wantedSince(T, Duration.ofDays(3)))
        .isEqualTo(T.minus(Duration.ofDays(3)).minus(Duration.ofHours(1)));
    assertThat(FactsFreshness.EXACT.wantedSince(T, Duration.ofDays(3)))
        .isEqualTo(T.minus(Duration.ofDays(3)));
  }
}
