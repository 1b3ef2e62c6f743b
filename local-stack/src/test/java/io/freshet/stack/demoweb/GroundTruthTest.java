package io.freshet.stack.demoweb;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which served versions the ground truth says a client must hold: a calendar event listed only
 * after it ended more than {@link GroundTruth#CALENDAR_REACH} ago is counted apart.
 */
class GroundTruthTest {

  static final Instant ORIGIN = Instant.parse("2026-11-22T12:00:00Z");
  static final long T0 = ORIGIN.getEpochSecond();
  static final long DAY = 86_400;

  // at wall speed, trace time is wall time: item i of every feed is published at these times
  static final long[] FEED_TIMES = {T0 - 400 * DAY, T0 - 380 * DAY, T0 - 370 * DAY, T0 - 10 * DAY};

  final MutableClock wall = new MutableClock(ORIGIN);
  final ScaledClock clock = new ScaledClock(wall, ORIGIN, ORIGIN, 1);
  final Catalog catalog = catalog();
  final GroundTruth truth = new GroundTruth(catalog, clock);

  @Test
  void calendarEventsListedMoreThanAYearAfterTheyEndedAreCountedApart() {
    DemoSource calendar = normal(Kind.ICAL);
    truth.markServed(calendar.visibleAt(clock.traceNow()), wall.instant());

    // events end 7 days and 2 hours after their item: −393 and −373 days are beyond the reach,
    // −363 and −3 days within it
    assertThat(servedItems(calendar)).containsExactly(calendar.id() + "-3", calendar.id() + "-4");
    assertThat(truth.servedCountBySource()).containsEntry(calendar.id(), 2);
    assertThat(truth.servedBeyondReach()).isEqualTo(2);
    assertThat(truth.summary().servedBeyondReach()).isEqualTo(2);
  }

  @Test
  void aCalendarEventServedWithinTheReachStaysServedAfterItFallsBeyond() {
    DemoSource calendar = normal(Kind.ICAL);
    truth.markServed(calendar.visibleAt(clock.traceNow()), wall.instant());
    wall.advance(Duration.ofDays(30)); // item 3's event is now 393 days past
    truth.markServed(calendar.visibleAt(clock.traceNow()), wall.instant());

    assertThat(truth.servedCountBySource()).containsEntry(calendar.id(), 2);
    assertThat(truth.servedBeyondReach()).isEqualTo(2);
  }

  @Test
  void otherKindsCountEveryServedVersionHoweverOld() {
    DemoSource rss = normal(Kind.RSS);
    truth.markServed(rss.visibleAt(clock.traceNow()), wall.instant());

    assertThat(truth.servedCountBySource()).containsEntry(rss.id(), 4);
    assertThat(truth.servedBeyondReach()).isZero();
  }

  private List<String> servedItems(DemoSource s) {
    return truth.entries(s).stream()
        .filter(e -> e.servedAt() != null)
        .map(e -> e.version().itemId())
        .toList();
  }

  private DemoSource normal(Kind kind) {
    return catalog.sources().stream()
        .filter(s -> s.kind() == kind && s.behaviour() == Behaviour.NORMAL)
        .findFirst()
        .orElseThrow();
  }

  private static Catalog catalog() {
    List<String> feedIds = new ArrayList<>();
    long[][] feedTimes = new long[20][];
    for (int f = 0; f < 20; f++) {
      feedIds.add("feed-" + f);
      feedTimes[f] = FEED_TIMES;
    }
    List<String> pageIds = new ArrayList<>();
    long[][] pageTimes = new long[60][];
    for (int p = 0; p < 60; p++) {
      pageIds.add("page-" + p);
      pageTimes[p] = new long[] {T0 - DAY};
    }
    var settings =
        new DemoWebSettings(
            "127.0.0.1",
            0,
            80,
            80,
            20,
            1,
            ORIGIN,
            ORIGIN,
            false,
            Duration.ofMillis(300),
            Duration.ofSeconds(2));
    return Catalog.build(
        new TraceTimes(feedIds, feedTimes), new TraceTimes(pageIds, pageTimes), settings);
  }
}
