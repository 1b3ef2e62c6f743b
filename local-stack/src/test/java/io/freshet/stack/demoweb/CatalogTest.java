package io.freshet.stack.demoweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CatalogTest {

  @Test
  void aThousandSourcesFromTheBundledTracesCoverEveryKindAndEveryMisbehaviour() {
    Catalog c = Catalog.fromBundledTraces(DemoWebSettings.defaults());
    assertThat(c.size()).isEqualTo(1_000);
    assertThat(c.sources().stream().map(DemoSource::kind).collect(Collectors.toSet()))
        .isEqualTo(EnumSet.allOf(Kind.class));
    assertThat(c.ofKind(Kind.HTML)).hasSize(425);
    assertThat(c.ofKind(Kind.ICAL)).hasSize(115);
    assertThat(c.sources().stream().map(DemoSource::behaviour).collect(Collectors.toSet()))
        .isEqualTo(EnumSet.allOf(Behaviour.class));
    long misbehaving = c.sources().stream().filter(s -> s.behaviour() != Behaviour.NORMAL).count();
    assertThat(misbehaving).isBetween(40L, 60L);
    assertThat(c.sources().stream().map(DemoSource::host).collect(Collectors.toSet())).hasSize(200);
  }

  @Test
  void beyondWhatTheTracesHoldTheCatalogRepeatsThemAsCopiesEachASourceOfItsOwn() {
    var settings = DemoWebSettings.defaults().withMisbehaving(false);
    Catalog full = Catalog.fromBundledTraces(settings.withSources(1_496));
    Catalog big = Catalog.fromBundledTraces(settings.withSources(4_000));
    assertThat(full.size()).isEqualTo(1_496);
    assertThat(big.size()).isEqualTo(4_000);
    // every original is there once, with two copies each for the first 1,008 of them
    assertThat(big.sources().stream().filter(s -> !s.id().contains("-copy")).count())
        .isEqualTo(1_496);
    DemoSource first = full.sources().iterator().next();
    DemoSource copy = big.get(first.id() + "-copy2");
    DemoSource third = big.get(first.id() + "-copy3");
    assertThat(copy.kind()).isEqualTo(first.kind());
    assertThat(copy.events()).isEqualTo(first.events());
    assertThat(copy.path()).isNotEqualTo(first.path());
    assertThat(third).isNotNull();
    assertThat(big.get(first.id() + "-copy4")).isNull();
    // the mix of kinds stays the full catalog's, within one copy's rounding
    for (Kind kind : Kind.values()) {
      assertThat((double) big.ofKind(kind).size() / 4_000)
          .isCloseTo((double) full.ofKind(kind).size() / 1_496, within(0.02));
    }
    assertThatThrownBy(() -> settings.withSources(DemoWebSettings.MAX_SOURCES + 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sources must be 1-100000");
  }

  @Test
  void aSmallCatalogHoldsEveryKindAndOnlyWellBehavedHosts() {
    Catalog c = Catalog.fromBundledTraces(DemoWebSettings.defaults().withSources(12));
    assertThat(c.sources().stream().map(DemoSource::kind).collect(Collectors.toSet()))
        .isEqualTo(EnumSet.allOf(Kind.class));
    assertThat(c.sources()).allMatch(s -> s.behaviour() == Behaviour.NORMAL);
    assertThat(new HashSet<>(c.sources().stream().map(DemoSource::id).toList())).hasSize(12);
  }

  @Test
  void theTimelinesAreTheTracesOwn() {
    Catalog c = Catalog.fromBundledTraces(DemoWebSettings.defaults().withSources(50));
    DemoSource rss = c.ofKind(Kind.RSS).getFirst();
    DemoSource atom = c.get("atom-" + rss.traceId());
    assertThat(rss.events()).isEqualTo(atom.events());
    assertThat(rss.events()).hasSizeGreaterThan(1);
    assertThat(
            Catalog.fromBundledTraces(DemoWebSettings.defaults().withSources(1_000))
                .get("page-0001")
                .events()[0])
        .isEqualTo(java.time.Instant.parse("2022-07-13T23:41:58Z").getEpochSecond());
    assertThat(Arrays.stream(rss.events()).sorted().toArray()).isEqualTo(rss.events());
  }

  @Test
  void aSmallCatalogTakesTheTracesBusiestAtTheReplayStartFirst() {
    var settings = DemoWebSettings.defaults();
    long from = settings.traceStart().getEpochSecond();
    long to = from + Catalog.LIVELY_WINDOW.toSeconds();
    Catalog small = Catalog.fromBundledTraces(settings.withSources(40));
    Catalog full = Catalog.fromBundledTraces(settings);
    long smallEvents = eventsIn(small.sources(), from, to);
    assertThat(smallEvents).isGreaterThan(100);
    // The 40 busiest hold more than 40 random ones would: a good share of the full catalog's.
    assertThat(smallEvents * 1_000 / 40).isGreaterThan(eventsIn(full.sources(), from, to));
  }

  static long eventsIn(java.util.Collection<DemoSource> sources, long from, long to) {
    return sources.stream()
        .mapToLong(s -> Arrays.stream(s.events()).filter(t -> t >= from && t < to).count())
        .sum();
  }

  @Test
  void aCatalogOfChosenTracesHoldsEachFeedTraceInEveryItemKindAndEachPageTraceAsAPage() {
    var settings = DemoWebSettings.defaults().withMisbehaving(false);
    Catalog full = Catalog.fromBundledTraces(settings.withSources(1_000));
    Catalog c = Catalog.fromBundledTraces(settings, List.of("feed-0027", "feed-0022", "page-0001"));
    assertThat(c.sources().stream().map(DemoSource::id))
        .containsExactlyInAnyOrder(
            "rss-feed-0027",
            "atom-feed-0027",
            "jsonfeed-feed-0027",
            "ical-feed-0027",
            "api-feed-0027",
            "rss-feed-0022",
            "atom-feed-0022",
            "jsonfeed-feed-0022",
            "ical-feed-0022",
            "api-feed-0022",
            "page-0001");
    assertThat(c.get("atom-feed-0022").events()).isEqualTo(full.get("atom-feed-0022").events());
    assertThat(c.get("page-0001").events()).isEqualTo(full.get("page-0001").events());
    assertThatThrownBy(() -> Catalog.fromBundledTraces(settings, List.of("feed-9999")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("feed-9999");
  }

  @Test
  void hostsSeventyFiveToSeventyNineOfEveryEightyMisbehaveOneWayEach() {
    assertThat(Catalog.behaviourOf(1)).isEqualTo(Behaviour.NORMAL);
    assertThat(Catalog.behaviourOf(75)).isEqualTo(Behaviour.RATE_LIMITED);
    assertThat(Catalog.behaviourOf(159)).isEqualTo(Behaviour.REDIRECT_LOOP);
    assertThat(Catalog.hostAddress(1)).isEqualTo("127.0.1.1");
    assertThat(Catalog.hostAddress(255)).isEqualTo("127.0.2.1");
  }

  @Test
  void theLiveShareTakesBurstyFeedsAndReleasePagesFromTheCompleteHistoriesAndKeepsEveryKind() {
    var settings = DemoWebSettings.defaults().withHistoryShare(DemoWebSettings.LIVE_HISTORY_SHARE);
    Catalog c = Catalog.fromBundledTraces(settings);
    assertThat(c.size()).isEqualTo(1_000);
    assertThat(new HashSet<>(c.sources().stream().map(DemoSource::id).toList())).hasSize(1_000);
    List<DemoSource> bursty =
        c.sources().stream().filter(s -> s.traceId().startsWith("cfeed-")).toList();
    List<DemoSource> releases =
        c.sources().stream().filter(s -> s.traceId().startsWith("release-")).toList();
    assertThat(bursty).hasSize(45); // 30 % of 150
    assertThat(releases).hasSize(105);
    assertThat(bursty.stream().map(DemoSource::kind).collect(Collectors.toSet()))
        .isEqualTo(EnumSet.of(Kind.RSS, Kind.ATOM, Kind.JSON_FEED));
    assertThat(releases).allMatch(s -> s.kind() == Kind.HTML);
    assertThat(c.sources().stream().map(DemoSource::kind).collect(Collectors.toSet()))
        .isEqualTo(EnumSet.allOf(Kind.class));
    // each feed trace in all three feed kinds, with the trace's own timeline
    DemoSource rss = bursty.stream().filter(s -> s.kind() == Kind.RSS).findFirst().orElseThrow();
    assertThat(c.get("jsonfeed-" + rss.traceId()).events()).isEqualTo(rss.events());
    // spread through the catalog, not appended: the first tenth already holds both families
    List<DemoSource> firstTenth = c.sources().stream().limit(100).toList();
    assertThat(firstTenth).anyMatch(s -> s.traceId().startsWith("cfeed-"));
    assertThat(firstTenth).anyMatch(s -> s.traceId().startsWith("release-"));
    // the busiest complete-history feed is bursty: items first seen in the same hour
    assertThat(hasTwoWithinAnHour(rss.events())).isTrue();
  }

  @Test
  void aShareOfNoneBuildsTheSameCatalogAsTheTwoOriginalTracesAlone() {
    var settings = DemoWebSettings.defaults().withSources(300);
    Catalog without = Catalog.fromBundledTraces(settings);
    assertThat(without.sources())
        .noneMatch(s -> s.traceId().startsWith("cfeed-") || s.traceId().startsWith("release-"));
    Catalog small =
        Catalog.fromBundledTraces(settings.withSources(12).withHistoryShare(0.15)); // 2 of 12
    assertThat(small.sources()).anyMatch(s -> s.traceId().startsWith("cfeed-"));
    assertThat(small.sources()).anyMatch(s -> s.traceId().startsWith("release-"));
    assertThat(small.size()).isEqualTo(12);
  }

  @Test
  void theShareIsValidatedAndTheDemoWebProgramDefaultsToTheLiveShare() {
    assertThatThrownBy(() -> DemoWebSettings.defaults().withHistoryShare(0.6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("historyShare");
    assertThatThrownBy(() -> DemoWebSettings.defaults().withHistoryShare(Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(DemoWebSettings.defaults().historyShare()).isZero();
    assertThat(DemoWebSettings.fromEnvironment(java.util.Map.of()).historyShare())
        .isEqualTo(DemoWebSettings.LIVE_HISTORY_SHARE);
    assertThat(
            DemoWebSettings.fromEnvironment(java.util.Map.of("DEMO_WEB_HISTORY_SHARE", "0"))
                .historyShare())
        .isZero();
  }

  private static boolean hasTwoWithinAnHour(long[] events) {
    for (int i = 1; i < events.length; i++) {
      if (events[i] - events[i - 1] < 3_600) {
        return true;
      }
    }
    return false;
  }
}
