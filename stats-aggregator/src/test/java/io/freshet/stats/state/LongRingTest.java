package io.freshet.stats.state;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LongRingTest {

  @Test
  void keepsTheNewestValuesOnceEachOldestFirst() {
    LongRing ring = new LongRing(2);
    for (long v = 1; v <= 7; v++) {
      assertThat(ring.add(v, 5)).isTrue();
    }
    assertThat(ring.add(5, 5)).isFalse();
    assertThat(ring.toArray()).containsExactly(3, 4, 5, 6, 7);
    assertThat(ring.contains(2)).isFalse();
    assertThat(ring.add(2, 5)).isTrue(); // evicted before, so new again
    assertThat(ring.toArray()).containsExactly(4, 5, 6, 7, 2);
  }

  @Test
  void aRestoredRingKeepsItsOrderAndAShrunkCapacityDropsTheOldest() {
    LongRing ring = LongRing.of(new long[] {10, 20, 30});
    assertThat(ring.add(40, 10)).isTrue();
    assertThat(ring.toArray()).containsExactly(10, 20, 30, 40);
    assertThat(ring.add(50, 2)).isTrue();
    assertThat(ring.toArray()).containsExactly(40, 50);
  }
}
