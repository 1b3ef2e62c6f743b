package io.freshet.stack.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.stack.launcher.PushReport.Group;
import io.freshet.stack.launcher.PushReport.Item;
import io.freshet.stack.launcher.PushReport.Source;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Pushed against polled feeds: grouping, counting and the delay percentiles, without a stack. */
class PushReportTest {

  private static final Instant START = Instant.parse("2026-11-29T03:00:00Z");
  private static final Instant END = START.plusSeconds(600);
  private static final PushReport.Window WINDOW =
      new PushReport.Window(START, END, END.plusSeconds(30), 1440);

  @Test
  void onlyFeedsOnWellBehavedHostsAreComparedGroupedByTheHubTheyAnnounce() {
    assertThat(PushReport.groupOf(new Source("rss-1", "rss", "normal", "good")))
        .isEqualTo(Group.PUSHED);
    assertThat(PushReport.groupOf(new Source("atom-1", "atom", "normal", "lapses")))
        .isEqualTo(Group.HUB_MISBEHAVES);
    assertThat(PushReport.groupOf(new Source("jsonfeed-1", "json_feed", "normal", null)))
        .isEqualTo(Group.POLLED);
    assertThat(PushReport.groupOf(new Source("ical-1", "ical", "normal", null))).isNull();
    assertThat(PushReport.groupOf(new Source("page-1", "html", "normal", null))).isNull();
    assertThat(PushReport.groupOf(new Source("rss-2", "rss", "slow", null))).isNull();
  }

  @Test
  void anAtomEntrysUrnIsTheDemosItemId() {
    assertThat(PushReport.demoItemId("urn:freshet-demo:atom-feed-0109-129"))
        .isEqualTo("atom-feed-0109-129");
    assertThat(PushReport.demoItemId("rss-feed-0001-40")).isEqualTo("rss-feed-0001-40");
  }

  @Test
  void nearestRankPercentiles() {
    assertThat(PushReport.percentile(List.of(), 0.5)).isEqualTo(-1);
    assertThat(PushReport.percentile(List.of(7L), 0.95)).isEqualTo(7);
    List<Long> twenty = new java.util.ArrayList<>();
    for (long i = 20; i >= 1; i--) {
      twenty.add(i * 100);
    }
    assertThat(PushReport.percentile(twenty, 0.5)).isEqualTo(1_000); // the 10th of 20
    assertThat(PushReport.percentile(twenty, 0.95)).isEqualTo(1_900); // the 19th
    assertThat(PushReport.percentile(List.of(3L, 1L, 2L, 4L), 0.5)).isEqualTo(2);
  }

  @Test
  void eachGroupCountsItsFeedsFetchesAndTheItemsPublishedInTheWindow() {
    Map<String, Source> sources =
        Map.of(
            "rss-1", new Source("rss-1", "rss", "normal", "good"),
            "rss-2", new Source("rss-2", "rss", "normal", "good"),
            "atom-1", new Source("atom-1", "atom", "normal", null),
            "atom-2", new Source("atom-2", "atom", "normal", "denies"),
            "ical-1", new Source("ical-1", "ical", "normal", null));
    Map<String, Long> fetches = Map.of("rss-1", 2L, "rss-2", 1L, "atom-1", 9L, "ical-1", 50L);
    List<Item> items =
        List.of(
            // pushed: two stored (1 s and 3 s), one published before the window, one after
            new Item("rss-1", "a", START.plusSeconds(10), START.plusSeconds(11)),
            new Item("rss-2", "b", START.plusSeconds(20), START.plusSeconds(23)),
            new Item("rss-1", "old", START.minusSeconds(1), START.plusSeconds(5)),
            new Item("rss-1", "late", END, null),
            // polled: one stored after 8 s, one published 2 s before the end and not yet stored
            new Item("atom-1", "c", START.plusSeconds(100), START.plusSeconds(108)),
            new Item("atom-1", "d", END.minusSeconds(2), null),
            // not compared
            new Item("ical-1", "e", START.plusSeconds(30), START.plusSeconds(31)));

    var figures = PushReport.figures(sources, fetches, items, WINDOW);

    var pushed = figures.get(Group.PUSHED);
    assertThat(pushed.feeds()).isEqualTo(2);
    assertThat(pushed.fetches()).isEqualTo(3);
    assertThat(pushed.published()).isEqualTo(2);
    assertThat(pushed.delaysMs()).containsExactly(1_000L, 3_000L);
    assertThat(pushed.notStoredAgesMs()).isEmpty();
    assertThat(pushed.fetchesPerItem()).isEqualTo(1.5);
    assertThat(pushed.delay(0.5)).isEqualTo(1_000);
    assertThat(pushed.delay(0.95)).isEqualTo(3_000);

    var polled = figures.get(Group.POLLED);
    assertThat(polled.feeds()).isEqualTo(1);
    assertThat(polled.fetches()).isEqualTo(9);
    assertThat(polled.published()).isEqualTo(2);
    assertThat(polled.delaysMs()).containsExactly(8_000L);
    assertThat(polled.notStoredAgesMs()).containsExactly(32_000L); // 2 s + the 30 s grace

    var broken = figures.get(Group.HUB_MISBEHAVES);
    assertThat(broken.feeds()).isEqualTo(1);
    assertThat(broken.published()).isZero();
    assertThat(broken.fetchesPerItem()).isNaN();
  }

  @Test
  void theLineGivesWallAndDemoTimeAndNamesWhatIsNotStoredYet() {
    var f =
        new PushReport.Figures(
            Group.POLLED, 12, 30, 4, List.of(1_250L, 2_500L, 9_000L), List.of(4_000L));

    assertThat(PushReport.line(f, 1440))
        .isEqualTo(
            "polled feeds (no hub): 12 feeds, 4 new items published, 30 fetches, 7.50 fetches per"
                + " new item; publish-to-stored delay median 2.5 s wall = 1.0 trace h, p95 9.0 s"
                + " wall = 3.6 trace h (n=3); not stored when read: 1 (published 4 s before the"
                + " read)");
    var none = new PushReport.Figures(Group.PUSHED, 3, 1, 0, List.of(), List.of());
    assertThat(PushReport.line(none, 1440))
        .isEqualTo(
            "pushed feeds (good hub): 3 feeds, 0 new items published, 1 fetches, n/a fetches per"
                + " new item; publish-to-stored delay n/a (none stored)");
  }

  @Test
  void traceSpansForPeople() {
    assertThat(PushReport.traceSpan(40)).isEqualTo("40 trace s");
    assertThat(PushReport.traceSpan(1_740)).isEqualTo("29 trace min");
    assertThat(PushReport.traceSpan(5_040)).isEqualTo("1.4 trace h");
    assertThat(PushReport.traceSpan(864_000)).isEqualTo("10.0 trace days");
  }
}
