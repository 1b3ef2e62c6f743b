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
}
