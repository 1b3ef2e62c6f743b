package io.freshet.cadence.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceSplitTest {

  private static Trace trace(int n) {
    List<String> ids = new ArrayList<>();
    long[][] times = new long[n][];
    for (int s = 0; s < n; s++) {
      ids.add(String.format("src-%04d", s));
      times[s] = new long[] {1000L + s, 5000L + s};
    }
    return new Trace(ids, times, null, null);
  }

  @Test
  void halvesPartitionTheSourcesDeterministically() {
    Trace t = trace(200);
    Trace a = TraceSplit.half(t, TraceSplit.Half.TUNING);
    Trace b = TraceSplit.half(t, TraceSplit.Half.HELD_OUT);
    assertThat(a.sources() + b.sources()).isEqualTo(200);
    assertThat(a.sources()).isBetween(70, 130);
    assertThat(a.ids()).doesNotContainAnyElementsOf(b.ids());
    assertThat(TraceSplit.half(t, TraceSplit.Half.TUNING).ids()).isEqualTo(a.ids());
    for (String id : a.ids()) {
      assertThat(TraceSplit.halfOf(id)).isEqualTo(TraceSplit.Half.TUNING);
    }
    int s = a.ids().indexOf(a.ids().get(3));
    assertThat(a.times()[s]).containsExactly(t.times()[t.ids().indexOf(a.ids().get(3))]);
  }

  @Test
  void gridMovesTimesUpToTheNextMultiple() {
    Trace t = new Trace(List.of("x"), new long[][] {{3600, 3601, 7199, 7300}}, null, null);
    Trace g = TraceSplit.onGrid(t, 3600);
    assertThat(g.times()[0]).containsExactly(3600, 7200, 7200, 10800);
    assertThat(t.times()[0]).containsExactly(3600, 3601, 7199, 7300);
  }
}
