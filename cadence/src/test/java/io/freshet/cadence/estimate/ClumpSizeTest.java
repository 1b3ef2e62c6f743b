package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ClumpSizeTest {

  private static final long T0 = 1_800_000_000L;
  private static final long H = 3600;
  private static final double MEMORY = 60 * 24;

  @Test
  void aPoissonSourceOfDailyItemsPublishesOneAtATime() {
    ClumpSize c = new ClumpSize(MEMORY);
    Random r = new Random(1);
    double t = 0;
    for (int i = 0; i < 100; i++) {
      t += -Math.log(1 - r.nextDouble()) * 24; // mean gap a day
      c.observe(T0 + (long) (t * H));
    }
    // P(gap < 1 h) = 1 − e^{−1/24} ≈ 4 %: the clumps are nearly the items
    assertThat(c.items() / c.clumps()).isBetween(1.0, 1.1);
    assertThat(c.size(1)).isBetween(1.0, 1.1);
  }

  @Test
  void aDumpIsOneClumpOfItsSize() {
    ClumpSize c = new ClumpSize(MEMORY);
    for (int i = 0; i < 180; i++) {
      c.observe(T0 + i * 40L); // 180 items two hours long, 40 s apart
    }
    assertThat(c.clumps()).isCloseTo(1, within(0.01));
    assertThat(c.items()).isCloseTo(180, within(0.5));
    // one clump of its own against 5 pseudo-clumps of the population's (size 1): (180 + 5) / 6
    assertThat(c.size(1)).isCloseTo(185.0 / 6, within(0.2));
  }

  @Test
  void aSourceWithNoItemsTakesThePopulationsSizeAndItsOwnRecordWinsWithEvidence() {
    ClumpSize quiet = new ClumpSize(MEMORY);
    assertThat(quiet.size(4)).isEqualTo(4);
    ClumpSize weekly = new ClumpSize(MEMORY);
    for (int w = 0; w < 20; w++) {
      weekly.observe(T0 + w * 7 * 24 * H); // one item a week
    }
    // 20 clumps of one (about 9 once faded with the 60-day memory) against 5 of four: the own
    // record pulls it more than half way to 1
    assertThat(weekly.size(4)).isBetween(1.0, 2.5);
  }

  @Test
  void anItemJustAfterOneAlreadySeenExtendsItsClump() {
    ClumpSize c = new ClumpSize(MEMORY);
    assertThat(c.observe(T0)).isTrue();
    assertThat(c.observe(T0 + 30 * 60)).isFalse();
    assertThat(c.observe(T0 + 2 * H)).isTrue();
    // the previous item given explicitly (a feed list's item before the new ones) decides
    assertThat(c.observe(T0 + 10 * H, T0 + 10 * H - 60)).isFalse();
  }

  @Test
  void theCountsFadeWithTheMemory() {
    ClumpSize c = new ClumpSize(MEMORY);
    c.observe(T0);
    c.observe(T0 + (long) (MEMORY * H)); // one memory later: the first item weighs 1/e
    assertThat(c.items()).isCloseTo(1 + Math.exp(-1), within(1e-6));
  }

  @Test
  void thePopulationIsItsMembersItemsOverClumps() {
    ClumpSize dump = new ClumpSize(MEMORY);
    for (int i = 0; i < 30; i++) {
      dump.observe(T0 + i * 60L);
    }
    ClumpSize single = new ClumpSize(MEMORY);
    single.observe(T0);
    ClumpSize.Population p = new ClumpSize.Population();
    assertThat(p.size()).isEqualTo(1);
    p.accumulate(dump);
    p.accumulate(single);
    p.commit();
    assertThat(p.size()).isCloseTo(31.0 / 2, within(0.01));
    p.commit(); // nothing accumulated: no members with items, size 1
    assertThat(p.size()).isEqualTo(1);
    assertThatThrownBy(() -> new ClumpSize(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
