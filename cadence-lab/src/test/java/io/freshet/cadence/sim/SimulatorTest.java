package io.freshet.cadence.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.freshet.cadence.sim.peer.FixedIntervalPolicy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SimulatorTest {

  private static final long FROM = 1_800_000_000L;
  private static final long H = 3600;

  private static Trace trace(long... offsetsSeconds) {
    long[] t = new long[offsetsSeconds.length];
    for (int i = 0; i < t.length; i++) {
      t[i] = FROM + offsetsSeconds[i];
    }
    return new Trace(List.of("s"), new long[][] {t}, null, null);
  }

  private static RunMetrics run(Trace trace, ObserveMode mode, int feedSize, double everySeconds) {
    SimSetup setup = new SimSetup(trace, mode, FROM, FROM + 10 * H, 1, feedSize, false);
    return new Simulator(setup)
        .run(s -> new FixedIntervalPolicy(everySeconds), 1.0, true, Long.MAX_VALUE);
  }

  @Test
  void measuresDelayFreshnessAndHarmonicStalenessExactly() {
    // changes at 0.5 h, 1 h, 5 h; fetches every 2 h at 2, 4, 6, 8 h
    RunMetrics m = run(trace(H / 2, H, 5 * H), ObserveMode.FEED, 20, 2 * H);
    assertThat(m.fetches()).isEqualTo(4);
    assertThat(m.changes()).isEqualTo(3);
    assertThat(m.meanDelayHours()).isCloseTo(3.5 / 3, within(1e-9));
    assertThat(m.p50DelayHours()).isCloseTo(1.0, within(1e-6));
    // stale 0.5→2 h and 5→6 h: 2.5 of 10 h
    assertThat(m.freshness()).isCloseTo(0.75, within(1e-9));
    // H(1)·0.5 + H(2)·1 + H(1)·1 = 3 source-hours over 10
    assertThat(m.harmonicStaleness()).isCloseTo(0.3, within(1e-9));
    assertThat(m.unseenChanges()).isZero();
  }

  @Test
  void perSourceFiguresAddUpToTheTotals() {
    Trace two =
        new Trace(
            List.of("a", "b"),
            new long[][] {{FROM + H / 2, FROM + H, FROM + 5 * H}, {FROM + 3 * H}},
            null,
            null);
    SimSetup setup = new SimSetup(two, ObserveMode.FEED, FROM, FROM + 10 * H, 1, 20, false);
    RunMetrics m =
        new Simulator(setup).run(s -> new FixedIntervalPolicy(2 * H), 1.0, true, Long.MAX_VALUE);
    RunMetrics.PerSource p = m.perSource();
    assertThat(p.changes()).containsExactly(3, 1);
    assertThat(p.fetches()).containsExactly(4, 4);
    // a: 1.5 + 1 + 1 h; b: 3 h → 4 h
    assertThat(p.delaySumHours()[0]).isCloseTo(3.5, within(1e-9));
    assertThat(p.delaySumHours()[1]).isCloseTo(1.0, within(1e-9));
    assertThat(m.meanDelayHours()).isCloseTo(4.5 / 4, within(1e-9));
    assertThat(p.fetches()[0] + p.fetches()[1]).isEqualTo(m.fetches());
  }

  @Test
  void aPageOnlyShowsItsLatestVersion() {
    RunMetrics m = run(trace(H / 2, H, 5 * H), ObserveMode.PAGE, 20, 2 * H);
    assertThat(m.unseenChanges()).isEqualTo(1);
    assertThat(m.meanDelayHours()).isCloseTo(3.5 / 3, within(1e-9));
  }

  @Test
  void aFeedLosesWhatItsListCannotHold() {
    RunMetrics m = run(trace(H / 4, H / 2, 3 * H / 4, H), ObserveMode.FEED, 2, 2 * H);
    assertThat(m.unseenChanges()).isEqualTo(2);
  }

  @Test
  void changesPendingAtTheEndAreCensoredAndUnseen() {
    RunMetrics m = run(trace(9 * H), ObserveMode.FEED, 20, 4 * H);
    // fetches at 4 h and 8 h; the change at 9 h waits until the window ends at 10 h
    assertThat(m.fetches()).isEqualTo(2);
    assertThat(m.meanDelayHours()).isCloseTo(1.0, within(1e-9));
    assertThat(m.unseenChanges()).isEqualTo(1);
  }

  @Test
  void changesBeforeTheWindowAreOnlyBootstrapEvidence() {
    Trace tr = trace(-5 * H, -H, 3 * H);
    List<Integer> listed = new ArrayList<>();
    List<Boolean> boot = new ArrayList<>();
    SimSetup setup = new SimSetup(tr, ObserveMode.FEED, FROM, FROM + 10 * H, 1, 20, false);
    RunMetrics m =
        new Simulator(setup)
            .run(
                s ->
                    obs -> {
                      listed.add(obs.listedCount());
                      boot.add(obs.bootstrap());
                      for (int i = 0; i < obs.listedCount(); i++) {
                        assertThat(obs.listedTime(i)).isLessThanOrEqualTo(obs.now());
                      }
                      return 4 * H;
                    },
                1.0,
                true,
                Long.MAX_VALUE);
    assertThat(m.changes()).isEqualTo(1);
    assertThat(boot).containsExactly(true, false, false);
    assertThat(listed).containsExactly(2, 3, 3);
  }

  @Test
  void theScaleMultipliesEveryInterval() {
    SimSetup setup = new SimSetup(trace(H), ObserveMode.FEED, FROM, FROM + 10 * H, 1, 20, false);
    Simulator sim = new Simulator(setup);
    assertThat(sim.run(s -> new FixedIntervalPolicy(H), 1.0, false, Long.MAX_VALUE).fetches())
        .isEqualTo(9);
    assertThat(sim.run(s -> new FixedIntervalPolicy(H), 2.0, false, Long.MAX_VALUE).fetches())
        .isEqualTo(4);
  }

  @Test
  void equalCostFindsTheFactorThatSpendsTheBudget() {
    long[] none = {};
    Trace tr = new Trace(List.of("a", "b"), new long[][] {none, none}, null, null);
    SimSetup setup = new SimSetup(tr, ObserveMode.FEED, FROM, FROM + 100 * H, 4, 20, false);
    Simulator sim = new Simulator(setup);
    double scale = EqualCost.calibrate(sim, "fixed", s -> new FixedIntervalPolicy(H), line -> {});
    long fetches = sim.run(s -> new FixedIntervalPolicy(H), scale, false, Long.MAX_VALUE).fetches();
    assertThat((double) fetches).isCloseTo(400, within(400 * EqualCost.TOLERANCE));
  }
}
