package io.freshet.cadence.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.freshet.cadence.source.RateShape;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RhythmTest {

  private static final long MONDAY = Instant.parse("2026-01-05T00:00:00Z").getEpochSecond();

  @Test
  void hourOfWeekStartsOnMondayMidnightUtc() {
    assertThat(HourOfWeekProfile.hourOfWeek(MONDAY)).isZero();
    assertThat(HourOfWeekProfile.hourOfWeek(MONDAY + 9 * 3600 + 1800)).isEqualTo(9);
    assertThat(HourOfWeekProfile.hourOfWeek(MONDAY - 1)).isEqualTo(167);
  }

  @Test
  void aSourcePublishingAtNineOnWeekdaysIsLearnedAndFetchedRightAfterNine() {
    Random rnd = new Random(8);
    HourOfWeekProfile own = new HourOfWeekProfile(Double.POSITIVE_INFINITY);
    HourOfWeekProfile population = new HourOfWeekProfile(Double.POSITIVE_INFINITY);
    long end = MONDAY + 20 * 7 * 86_400L;
    own.observed(MONDAY, end, end);
    population.observed(MONDAY, end, end);
    for (int week = 0; week < 20; week++) {
      for (int day = 0; day < 5; day++) {
        long at = MONDAY + week * 7 * 86_400L + day * 86_400L + 9 * 3600 + rnd.nextInt(3600);
        own.add(at, end);
      }
    }
    for (int i = 0; i < 5000; i++) { // the population publishes at any hour
      population.add(MONDAY + rnd.nextInt(20 * 7 * 86_400), end);
    }
    double[] parent = population.multipliers(null, 30, new double[HourOfWeekProfile.HOURS]);
    double[] m = own.multipliers(parent, 30, new double[HourOfWeekProfile.HOURS]);
    double mean = 0;
    for (double x : m) {
      mean += x / HourOfWeekProfile.HOURS;
    }
    assertThat(mean).isCloseTo(1.0, within(1e-9));
    // 100 items, 20 in each weekday's nine o'clock hour, half of each counted in its own hour: 10
    // items in 20 observed hours against 100 items in 3,360 hours, 16.8 × the mean rate — shrunk
    // by 30/168 pseudo-items an hour and renormalised, ≈ 14
    assertThat(m[9]).isBetween(12.0, 17.0);
    assertThat(m[3]).isLessThan(0.3); // 3 am: only the population's pull
    assertThat(m[5 * 24 + 9]).isLessThan(0.3); // Saturday nine o'clock likewise

    // placement at a mean interval of 6 h over four weeks: the same number of fetches (the shape
    // is normalised), crowded into the weekday hours after nine (10 of 168 hours of the week)
    ChangeShape shape = new ChangeShape(null, Long.MIN_VALUE, m);
    long t = MONDAY;
    int fetches = 0;
    int afterNine = 0;
    while (t < MONDAY + 28 * 86_400L) {
      t += RateShape.wait(shape, t, 6 * 3600, 300, 7 * 86_400);
      int h = HourOfWeekProfile.hourOfWeek(t);
      fetches++;
      if (h < 5 * 24 && (h % 24 == 9 || h % 24 == 10)) {
        afterNine++;
      }
    }
    assertThat(fetches).isBetween(95, 130); // 112 at a steady 6 h
    assertThat((double) afterNine / fetches).isGreaterThan(0.2); // over 3 × their 6 % of the time
  }

  @Test
  void hoursNotObservedYetFollowTheParentInsteadOfLookingDead() {
    // watched for one Monday morning only: the items seen then must not make the rest of the week
    // look dead (the bias of counting items without the time they were watched over)
    HourOfWeekProfile own = new HourOfWeekProfile(Double.POSITIVE_INFINITY);
    long end = MONDAY + 5 * 3600;
    own.observed(MONDAY, end, end);
    for (int i = 0; i < 20; i++) {
      own.add(MONDAY + i * 900, end);
    }
    double[] m = own.multipliers(null, 30, new double[HourOfWeekProfile.HOURS]);
    assertThat(m[2]).isCloseTo(m[100], within(0.35 * m[100])); // watched hour ≈ unwatched hour
    assertThat(m[100]).isGreaterThan(0.7);
  }

  @Test
  void aFlatShapeWaitsTheMeanIntervalAndTheClampsHold() {
    RateShape flat = new ChangeShape(null, Long.MIN_VALUE, null);
    assertThat(RateShape.wait(flat, MONDAY, 5000, 60, 86_400)).isEqualTo(5000);
    assertThat(RateShape.wait(flat, MONDAY, 10, 60, 86_400)).isEqualTo(60);
    assertThat(RateShape.wait(flat, MONDAY, 1e9, 60, 86_400)).isEqualTo(86_400);
    // a shape that is zero everywhere never accumulates: the slowest interval
    RateShape dead =
        new RateShape() {
          @Override
          public double multiplier(long t) {
            return 0;
          }

          @Override
          public long constantUntil(long t) {
            return t + 3600;
          }
        };
    assertThat(RateShape.wait(dead, MONDAY, 5000, 60, 86_400)).isEqualTo(86_400);
  }

  @Test
  void aBurstShapeFetchesSoonerAfterAChange() {
    AgeHazard hazard = new AgeHazard(Double.POSITIVE_INFINITY);
    for (int i = 0; i < 200; i++) { // many changes within the first hour, few later
      hazard.observe(MONDAY, 0.1, 0, 0.5, 1, true);
      hazard.observe(MONDAY, 0.1, 0.5, 20, 0, true);
    }
    hazard.refresh();
    assertThat(hazard.multiplier(0.2)).isGreaterThan(3);
    long justChanged =
        RateShape.wait(new ChangeShape(hazard, MONDAY, null), MONDAY, 7200, 60, 1_000_000);
    long longAgo =
        RateShape.wait(
            new ChangeShape(hazard, MONDAY - 10 * 3600L, null), MONDAY, 7200, 60, 1_000_000);
    assertThat(justChanged).isLessThan(3600);
    assertThat(longAgo).isGreaterThan(7200);
  }

  @Test
  void aShapeRelativeToNowStartsAtOneAndFollowsTheHazardFromThere() {
    AgeHazard hazard = new AgeHazard(Double.POSITIVE_INFINITY);
    for (int i = 0; i < 200; i++) {
      hazard.observe(MONDAY, 0.1, 0, 0.5, 1, true);
      hazard.observe(MONDAY, 0.1, 0.5, 20, 0, true);
    }
    hazard.refresh();
    long lastChange = MONDAY - 1800; // half an hour ago: in the burst bin
    ChangeShape shape = ChangeShape.relativeTo(hazard, lastChange, null, MONDAY);
    assertThat(shape.multiplier(MONDAY)).isCloseTo(1.0, within(1e-12));
    // an hour after the change the hazard falls: relative to now, well below 1
    assertThat(shape.multiplier(MONDAY + 3 * 3600))
        .isCloseTo(hazard.multiplier(3.5) / hazard.multiplier(0.5), within(1e-12))
        .isLessThan(0.5);
  }

  @Test
  void aStratifiedShapeFollowsTheCurveOfTheSourcesOwnRate() {
    AgeHazard hazard = new AgeHazard(Double.POSITIVE_INFINITY, AgeHazard.RATE_STRATA);
    for (int i = 0; i < 200; i++) {
      // slow sources (1/500 h): a follow-up within the hour half the time; fast ones: Poisson
      hazard.observe(MONDAY, 0.002, 0, 0.75, 1, true);
      hazard.observe(MONDAY, 0.002, 0, 1000, 1, true);
      hazard.observe(MONDAY, 1.0, 0, 1.0, 1, true);
    }
    hazard.refresh();
    long lastChange = MONDAY - 1800;
    ChangeShape slow = ChangeShape.relativeTo(hazard, 0.002, lastChange, null, MONDAY);
    ChangeShape fast = ChangeShape.relativeTo(hazard, 1.0, lastChange, null, MONDAY);
    assertThat(slow.multiplier(MONDAY + 3 * 3600))
        .isCloseTo(hazard.multiplier(3.5, 0.002) / hazard.multiplier(0.5, 0.002), within(1e-12))
        .isLessThan(0.1);
    assertThat(fast.multiplier(MONDAY + 3 * 3600))
        .isCloseTo(hazard.multiplier(3.5, 1.0) / hazard.multiplier(0.5, 1.0), within(1e-12));
    assertThat(hazard.multiplier(0.5, 0.002)).isGreaterThan(50 * hazard.multiplier(0.5, 1.0));
  }
}
