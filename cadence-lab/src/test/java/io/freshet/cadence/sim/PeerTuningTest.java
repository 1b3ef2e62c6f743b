package io.freshet.cadence.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PeerTuningTest {

  @Test
  void everyPeerIsSearchedAtEqualCostAndItsBestIsNoWorseThanItsScaledDefault()
      throws InterruptedException {
    Trace trace =
        TraceGenerator.generate(
            new TraceGenerator.Settings(
                150, 20, 5, Instant.parse("2026-01-05T00:00:00Z"), 0.3, 2.2));
    SimSetup setup =
        new SimSetup(trace, ObserveMode.FEED, trace.start(), trace.end() + 1, 20, 20, false);
    List<String> peers = List.of("nutch", "stormcrawler", "miniflux", "commafeed");
    List<PeerTuning.Best> tuned = PeerTuning.run(setup, 2, line -> {});
    List<PolicyReport> defaults = Comparison.run(setup, peers, true, 2, line -> {});

    assertThat(tuned).extracting(PeerTuning.Best::peer).containsExactlyElementsOf(peers);
    Map<String, List<PeerTuning.Variant>> grid = PeerTuning.grid();
    for (int i = 0; i < peers.size(); i++) {
      PeerTuning.Best best = tuned.get(i);
      assertThat(best.tried()).isEqualTo(grid.get(peers.get(i)).size()).isGreaterThan(4);
      // equal cost: within the calibration tolerance (plus integer noise) of the target
      assertThat((double) best.metrics().fetches())
          .isCloseTo(setup.targetFetches(), within(setup.targetFetches() * 0.02));
      // the grid holds the defaults, so the best is at most the scaled default's delay
      assertThat(best.metrics().meanDelayHours())
          .isLessThanOrEqualTo(defaults.get(i).metrics().meanDelayHours() + 1e-9);
    }
  }

  @Test
  void outOfSampleKeepsTheEarlierWindowsBestSettingAndOnTheSameWindowEqualsInSample()
      throws InterruptedException {
    Trace trace =
        TraceGenerator.generate(
            new TraceGenerator.Settings(
                80, 20, 7, Instant.parse("2026-01-05T00:00:00Z"), 0.3, 2.2));
    long mid = trace.start() + 10 * 86400L;
    SimSetup early = new SimSetup(trace, ObserveMode.FEED, trace.start(), mid, 10, 20, false);
    SimSetup late = new SimSetup(trace, ObserveMode.FEED, mid, trace.end() + 1, 10, 20, false);

    List<PeerTuning.Best> onEarly = PeerTuning.run(early, 2, line -> {});
    List<PeerTuning.Best> onLate = PeerTuning.run(late, 2, line -> {});
    List<PeerTuning.OutOfSample> oos = PeerTuning.outOfSample(early, late, 2, line -> {});

    for (int i = 0; i < oos.size(); i++) {
      PeerTuning.OutOfSample o = oos.get(i);
      // chosen on the earlier window only ...
      assertThat(o.peer()).isEqualTo(onEarly.get(i).peer());
      assertThat(o.setting()).isEqualTo(onEarly.get(i).setting());
      assertThat(o.tunedOn().meanDelayHours()).isEqualTo(onEarly.get(i).metrics().meanDelayHours());
      // ... reported at equal cost on the later one, never better than the later one's own best
      assertThat((double) o.evaluated().fetches())
          .isCloseTo(late.targetFetches(), within(late.targetFetches() * 0.02));
      assertThat(o.evaluated().meanDelayHours())
          .isGreaterThanOrEqualTo(onLate.get(i).metrics().meanDelayHours() * 0.98);
    }
    // tuned and evaluated on the same window, out of sample is in sample
    List<PeerTuning.OutOfSample> same = PeerTuning.outOfSample(late, late, 2, line -> {});
    for (int i = 0; i < same.size(); i++) {
      assertThat(same.get(i).setting()).isEqualTo(onLate.get(i).setting());
      assertThat(same.get(i).evaluated().meanDelayHours())
          .isEqualTo(onLate.get(i).metrics().meanDelayHours());
    }
  }
}
