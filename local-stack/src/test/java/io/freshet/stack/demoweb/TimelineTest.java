package io.freshet.stack.demoweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimelineTest {

  static final Instant ORIGIN = Instant.parse("2026-11-22T12:00:00Z");
  static final Instant TRACE_START = Instant.parse("2025-02-18T00:00:00Z");
  static final long T0 = TRACE_START.getEpochSecond();
  static final long DAY = 86_400;

  @Test
  void aTraceDayPassesInAWallMinuteAtScale1440() {
    var wall = new MutableClock(ORIGIN);
    var clock = new ScaledClock(wall, ORIGIN, TRACE_START, 1440);
    assertThat(clock.traceNow()).isEqualTo(T0);
    wall.advance(Duration.ofMinutes(1));
    assertThat(clock.traceNow()).isEqualTo(T0 + DAY);
    assertThat(clock.toWall(T0 + 2 * DAY)).isEqualTo(ORIGIN.plus(Duration.ofMinutes(2)));
    assertThat(clock.toWall(T0 - DAY)).isEqualTo(ORIGIN.minus(Duration.ofMinutes(1)));
    assertThatThrownBy(() -> new ScaledClock(wall, ORIGIN, TRACE_START, 0))
        .hasMessageContaining("scale");
  }

  @Test
  void aFeedShowsItsLatestWindowOfPublishedItemsOnly() {
    var feed = source(Kind.RSS, 3, T0 - 3 * DAY, T0 - 2 * DAY, T0 - DAY, T0, T0 + DAY);
    assertThat(ids(feed.visibleAt(T0 - 10 * DAY))).isEmpty();
    assertThat(ids(feed.visibleAt(T0))).containsExactly("s-2", "s-3", "s-4");
    assertThat(ids(feed.visibleAt(T0 + DAY))).containsExactly("s-3", "s-4", "s-5");
    assertThat(feed.visibleAt(T0).getFirst().version()).isEqualTo(1);
    assertThat(feed.newestAt(T0)).isEqualTo(T0);
    assertThat(feed.newestAt(T0 - 10 * DAY)).isNull();
  }

  @Test
  void aPageShowsOneVersionThatCountsItsChanges() {
    var page = source(Kind.HTML, 20, T0 - DAY, T0 + DAY, T0 + 2 * DAY);
    assertThat(page.visibleAt(T0 - 2 * DAY))
        .singleElement()
        .extracting(ItemVersion::version)
        .isEqualTo(0);
    assertThat(page.visibleAt(T0))
        .singleElement()
        .satisfies(
            v -> {
              assertThat(v.itemId()).isEqualTo("s");
              assertThat(v.version()).isEqualTo(1);
              assertThat(v.publishedTrace()).isEqualTo(T0 - DAY);
            });
    assertThat(page.visibleAt(T0 + 5 * DAY).getFirst().version()).isEqualTo(3);
  }

  @Test
  void publishedDuringAnIntervalIsWhatWasVisibleThenIncludingTheWindowAtItsStart() {
    var feed = source(Kind.ATOM, 2, T0 - 3 * DAY, T0 - 2 * DAY, T0 - DAY, T0 + DAY, T0 + 3 * DAY);
    // At T0 the feed shows items 2 and 3; items 4 and 5 appear later; item 1 was gone already.
    assertThat(ids(feed.visibleDuring(T0, T0 + 2 * DAY))).containsExactly("s-2", "s-3", "s-4");
    assertThat(ids(feed.visibleDuring(T0, T0 + 3 * DAY)))
        .containsExactly("s-2", "s-3", "s-4", "s-5");
    assertThat(feed.visibleDuring(T0, T0 - 1)).isEmpty();

    var page = source(Kind.HTML, 20, T0 - DAY, T0 + DAY, T0 + 2 * DAY);
    assertThat(page.visibleDuring(T0, T0 + DAY))
        .extracting(ItemVersion::version)
        .containsExactly(1, 2);
  }

  @Test
  void anApiReadWithASyncTokenReturnsWhatCameSinceOldestFirstAWindowAtATime() {
    var api = source(Kind.JSON_API, 2, T0 + 1, T0 + 2, T0 + 3, T0 + 4, T0 + 5);
    assertThat(ids(api.sinceToken(T0 + 5, null))).containsExactly("s-4", "s-5");
    assertThat(ids(api.sinceToken(T0 + 5, 1))).containsExactly("s-2", "s-3");
    assertThat(ids(api.sinceToken(T0 + 5, 3))).containsExactly("s-4", "s-5");
    assertThat(api.sinceToken(T0 + 5, 5)).isEmpty();
    assertThat(ids(api.sinceToken(T0 + 5, 9))).containsExactly("s-4", "s-5");
  }

  @Test
  void eventsOutOfOrderAreRefused() {
    assertThatThrownBy(() -> source(Kind.RSS, 2, T0, T0 - 1)).hasMessageContaining("ascending");
  }

  static DemoSource source(Kind kind, int window, long... events) {
    return new DemoSource("s", kind, "127.0.1.1", Behaviour.NORMAL, "t", events, window);
  }

  static List<String> ids(List<ItemVersion> versions) {
    return versions.stream().map(ItemVersion::itemId).toList();
  }
}
