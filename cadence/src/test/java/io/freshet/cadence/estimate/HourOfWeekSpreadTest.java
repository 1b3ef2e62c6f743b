package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A page's change, known only to its fetch interval, shared among the interval's hours. */
class HourOfWeekSpreadTest {

  /** Monday 2026-01-05 00:00 UTC. */
  private static final long MONDAY = 1767571200L;

  private static final long HOUR = 3600;

  @Test
  void aChangeIsSharedByThePriorAndCountsOnce() {
    HourOfWeekProfile p = new HourOfWeekProfile(Double.POSITIVE_INFINITY);
    double[] prior = new double[HourOfWeekProfile.HOURS];
    Arrays.fill(prior, 1.0);
    prior[1] = 3.0; // Monday 01:00 is three times as likely as Monday 00:00
    p.observed(MONDAY, MONDAY + 2 * HOUR, MONDAY + 2 * HOUR);
    p.addSpread(MONDAY, MONDAY + 2 * HOUR, prior, MONDAY + 2 * HOUR);
    assertThat(p.total()).isEqualTo(1.0);
    // one week watched in two hours only: those hours carry the change, 1 : 3
    double[] m = p.multipliers(null, 1e-9, new double[HourOfWeekProfile.HOURS]);
    assertThat(m[1] / m[0]).isCloseTo(3.0, within(1e-6));
  }

  @Test
  void aFlatPriorSharesEvenlyAndAnEmptyIntervalAddsNothing() {
    HourOfWeekProfile p = new HourOfWeekProfile(Double.POSITIVE_INFINITY);
    p.observed(MONDAY, MONDAY + 4 * HOUR, MONDAY + 4 * HOUR);
    p.addSpread(MONDAY, MONDAY + 4 * HOUR, null, MONDAY + 4 * HOUR);
    p.addSpread(MONDAY, MONDAY, null, MONDAY + 4 * HOUR);
    assertThat(p.total()).isEqualTo(1.0);
    double[] m = p.multipliers(null, 1e-9, new double[HourOfWeekProfile.HOURS]);
    // a quarter of the change in each watched hour: each at the watched mean, as flat as the prior
    assertThat(m[0]).isCloseTo(m[3], within(1e-6));
    assertThat(m[0]).isCloseTo(1.0, within(1e-6));
  }
}
