package io.freshet.cadence.sim.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.ObserveMode;
import io.freshet.cadence.sim.Trace;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerPoliciesTest {

  private static final long T0 = 1_800_000_000L;
  private static final long H = 3600;
  private static final long D = 86400;

  private static Trace trace(long... times) {
    return new Trace(List.of("s"), new long[][] {times}, null, null);
  }

  private static FetchObservation obs(Trace tr, long now, long previous) {
    return FetchObservation.of(tr, ObserveMode.FEED, 20, 0, now, previous, false);
  }

  private static FetchObservation boot(Trace tr, long now) {
    return FetchObservation.of(tr, ObserveMode.FEED, 20, 0, now, Long.MIN_VALUE, true);
  }

  @Test
  void nutchStartsAtThirtyDaysShrinksOnChangeAndGrowsWithoutSyncsToTheLastChange() {
    Trace tr = trace(T0 + H);
    NutchAdaptivePolicy nutch = new NutchAdaptivePolicy(1);
    assertThat(nutch.onFetch(boot(tr, T0))).isEqualTo(30 * D);
    // changed since: × 0.8, modified time = fetch time, no sync offset
    assertThat(nutch.onFetch(obs(tr, T0 + 2 * H, T0))).isCloseTo(24 * D, within(1.0));
    // unchanged 10 days later: × 1.4 = 33.6 d; delta 10 d < interval; next pulled forward 0.3 × 10
    // d
    assertThat(nutch.onFetch(obs(tr, T0 + 2 * H + 10 * D, T0 + 2 * H)))
        .isCloseTo(33.6 * D - 3 * D, within(1.0));
  }

  @Test
  void nutchIntervalIsAtLeastTheTimeSinceTheLastChangeAndCappedAtNinetyDays() {
    Trace tr = trace(T0 + H);
    NutchAdaptivePolicy nutch = new NutchAdaptivePolicy(1);
    nutch.onFetch(boot(tr, T0));
    nutch.onFetch(obs(tr, T0 + 2 * H, T0)); // modified at T0 + 2 h
    // 200 days later, unchanged: 24 d × 1.4 < delta 200 d → 200 d, capped at
    // db.fetch.interval.max 90 d; next = −0.3 × 200 d + 90 d = 30 d
    assertThat(nutch.onFetch(obs(tr, T0 + 2 * H + 200 * D, T0 + 2 * H)))
        .isCloseTo(90 * D - 60 * D, within(1.0));
    NutchAdaptivePolicy fast = new NutchAdaptivePolicy(1);
    long[] many = new long[200];
    for (int i = 0; i < many.length; i++) {
      many[i] = T0 + i * 60L;
    }
    Trace busy = trace(many);
    double last = 0;
    long now = T0;
    for (int i = 0; i < 100; i++) {
      last = fast.onFetch(obs(busy, now + 60, now));
      now += 60;
    }
    assertThat(last).isEqualTo(NutchAdaptivePolicy.MIN_INTERVAL);
  }

  @Test
  void nutchSyncDeltaFiresAgainstTheScaledIntervalAndKeepsTheRealOffset() {
    Trace tr = trace(T0 + H);
    NutchAdaptivePolicy nutch = new NutchAdaptivePolicy(1);
    nutch.scaledBy(0.2);
    nutch.onFetch(boot(tr, T0));
    // changed: 30 d × 0.8 = 24 d (units; 4.8 d real)
    assertThat(nutch.onFetch(obs(tr, T0 + 2 * H, T0))).isCloseTo(24 * D, within(1.0));
    // unchanged 10 real days later: 24 d × 1.4 = 33.6 d units = 6.72 d real < delta 10 d, so the
    // interval becomes 10 d real = 50 d units; the offset is 0.3 × 10 d = 3 d real = 15 d units:
    // returned 35 d units → 7 d real after the simulator's × 0.2 (the unscaled rule gave 30.6)
    double units = nutch.onFetch(obs(tr, T0 + 2 * H + 10 * D, T0 + 2 * H));
    assertThat(units).isCloseTo(35 * D, within(1.0));
    assertThat(units * 0.2).isCloseTo(7 * D, within(1.0));
  }

  @Test
  void nutchDropsAnOffsetThatWouldScheduleAtOrBeforeTheFetch() {
    Trace tr = trace(T0 + H);
    NutchAdaptivePolicy nutch = new NutchAdaptivePolicy(1);
    nutch.onFetch(boot(tr, T0));
    nutch.onFetch(obs(tr, T0 + 2 * H, T0)); // modified at T0 + 2 h
    // 400 days unchanged: interval capped at 90 d, offset 0.3 × 400 d = 120 d ≥ 90 d → dropped
    assertThat(nutch.onFetch(obs(tr, T0 + 2 * H + 400 * D, T0 + 2 * H)))
        .isCloseTo(90 * D, within(1.0));
  }

  @Test
  void stormCrawlerStartsAtADayHalvesTowardsTheMinimumAndGrowsByHalfToTwoWeeks() {
    Trace tr = trace(T0 + H);
    StormCrawlerAdaptivePolicy sc = new StormCrawlerAdaptivePolicy(1);
    assertThat(sc.onFetch(boot(tr, T0))).isEqualTo(1440 * 60.0);
    // changed: 0.5 × 1440 + 0.5 × 60 = 750 min
    assertThat(sc.onFetch(obs(tr, T0 + 2 * H, T0))).isEqualTo(750 * 60.0);
    // unchanged: × 1.5 = 1125 min
    assertThat(sc.onFetch(obs(tr, T0 + 3 * H, T0 + 2 * H))).isEqualTo(1125 * 60.0);
    double last = 0;
    for (int i = 0; i < 20; i++) {
      last = sc.onFetch(obs(tr, T0 + (4 + i) * H, T0 + (3 + i) * H));
    }
    assertThat(last).isEqualTo(20160 * 60.0);
  }

  @Test
  void minifluxDividesAWeekByTheVirtualCountOfEntriesStoredBeforeThisFetch() {
    long[] times = new long[14];
    for (int i = 0; i < times.length; i++) {
      times[i] = T0 - i * 12 * H; // two a day for a week
    }
    java.util.Arrays.sort(times);
    Trace tr = trace(times);
    MinifluxEntryFrequencyPolicy mf = new MinifluxEntryFrequencyPolicy(1);
    // nothing stored before the first fetch → W = 0 → the 1440 min maximum
    assertThat(mf.onFetch(boot(tr, T0))).isEqualTo(1440 * 60.0);
    // an hour later: 14 stored entries spanning 156 h, mean gap 12 h → ⌈168 / 12⌉ = 14 → 720 min
    assertThat(mf.onFetch(obs(tr, T0 + H, T0))).isEqualTo(720 * 60.0);
    // three weeks later, nothing in the last week → the maximum
    assertThat(mf.onFetch(obs(tr, T0 + 21 * D, T0 + H))).isEqualTo(1440 * 60.0);
  }

  @Test
  void minifluxVirtualCountIsAWeekOverTheMeanGapNotTheRawCount() {
    // three entries an hour apart: raw count 3 would give 3360 → 1440 min; the virtual count is
    // ⌈168 h / 1 h⌉ = 168 → 10080 / 168 = 60 min
    Trace tr = trace(T0 - 2 * H, T0 - H, T0);
    MinifluxEntryFrequencyPolicy mf = new MinifluxEntryFrequencyPolicy(1);
    mf.onFetch(boot(tr, T0));
    assertThat(mf.onFetch(obs(tr, T0 + 60, T0))).isEqualTo(60 * 60.0);
    // 0 h, 3 h, 10 h: mean gap 5 h → ⌈33.6⌉ = 34
    assertThat(
            MinifluxEntryFrequencyPolicy.virtualWeeklyCount(
                new long[] {T0, T0 + 3 * H, T0 + 10 * H}, 3, T0 + 10 * H))
        .isEqualTo(34);
    // one entry, or two at the same instant → 0
    assertThat(MinifluxEntryFrequencyPolicy.virtualWeeklyCount(new long[] {T0}, 1, T0)).isZero();
    assertThat(MinifluxEntryFrequencyPolicy.virtualWeeklyCount(new long[] {T0, T0}, 2, T0))
        .isZero();
    // one stored entry in the week → still the maximum
    Trace one = trace(T0);
    MinifluxEntryFrequencyPolicy single = new MinifluxEntryFrequencyPolicy(1);
    single.onFetch(boot(one, T0));
    assertThat(single.onFetch(obs(one, T0 + H, T0))).isEqualTo(1440 * 60.0);
  }

  @Test
  void minifluxWithoutEntriesWaitsTheMaximum() {
    MinifluxEntryFrequencyPolicy mf = new MinifluxEntryFrequencyPolicy(1);
    assertThat(mf.onFetch(boot(trace(), T0))).isEqualTo(1440 * 60.0);
  }

  @Test
  void commaFeedFollowsItsAgeRulesAndHalvesTheAverageGap() {
    CommaFeedEmpiricalPolicy cf = new CommaFeedEmpiricalPolicy();
    assertThat(cf.onFetch(boot(trace(), T0))).isEqualTo(4 * H);
    assertThat(cf.onFetch(boot(trace(T0 - 31 * D), T0))).isEqualTo(4 * H);
    assertThat(cf.onFetch(boot(trace(T0 - 15 * D), T0))).isEqualTo(2 * H);
    assertThat(cf.onFetch(boot(trace(T0 - 8 * D), T0))).isEqualTo(1 * H);
    // entries every 40 min → 20 min
    assertThat(cf.onFetch(boot(trace(T0 - 80 * 60, T0 - 40 * 60, T0), T0))).isEqualTo(20 * 60.0);
    // entries every 10 h → 5 h, capped at max/4 = 1 h
    assertThat(cf.onFetch(boot(trace(T0 - 20 * H, T0 - 10 * H, T0), T0))).isEqualTo(1 * H);
    // entries every 2 min → 1 min, floored at 5 min
    assertThat(cf.onFetch(boot(trace(T0 - 240, T0 - 120, T0), T0))).isEqualTo(5 * 60.0);
    // one recent entry, no average → max
    assertThat(cf.onFetch(boot(trace(T0 - H), T0))).isEqualTo(4 * H);
  }
}
