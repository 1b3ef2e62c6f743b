package io.freshet.stack.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import io.freshet.scheduler.schedule.CadenceTimeScale;
import io.freshet.stack.demoweb.ScaledClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code ./freshet up} puts the scheduler's cadence model on the demo web's clock: with the
 * settings it passes, the scheduler's model time is the web's trace time, so rhythms by hour of day
 * and weekday fall on the traces' own days.
 */
class DemoClockTest {

  /** An origin with a fraction of a second, as the origin file holds it. */
  static final Instant ORIGIN = Instant.parse("2026-11-23T05:41:07.123456Z");

  /** The scheduler's clock as it would read {@code env} (relaxed binding of the same names). */
  static CadenceTimeScale schedulerClock(Map<String, String> env) {
    return new CadenceTimeScale(
        Double.parseDouble(env.get("FRESHET_SCHEDULER_CADENCE_TIME_SCALE")),
        Instant.parse(env.get("FRESHET_SCHEDULER_CADENCE_TIME_WALL_ORIGIN")),
        Instant.parse(env.get("FRESHET_SCHEDULER_CADENCE_TIME_MODEL_ORIGIN")));
  }

  @Test
  void theSchedulersModelTimeIsTheDemoWebsTraceTime() {
    for (double scale : new double[] {60, 240, 1440}) {
      ScaledClock web =
          new ScaledClock(
              Clock.fixed(ORIGIN, ZoneOffset.UTC), ORIGIN, LocalStack.TRACE_START, scale);
      CadenceTimeScale scheduler =
          schedulerClock(LocalStack.cadenceTimeEnv(scale, ORIGIN, LocalStack.TRACE_START));

      for (long wallSeconds : new long[] {0, 1, 59, 3_600, 86_400 * 3 + 17}) {
        Instant wall = ORIGIN.plusSeconds(wallSeconds).plusMillis(250);
        // The web keeps whole trace seconds (floor); the scheduler the exact instant.
        assertThat(scheduler.toModel(wall).getEpochSecond())
            .as("scale %s, %s s after the origin", scale, wallSeconds)
            .isEqualTo(web.toTrace(wall));
      }
      // A trace event is dated in wall time by the web; the scheduler reads that date back as the
      // event's trace instant, to within the scale's second of wall rounding.
      long event = Instant.parse("2025-03-04T09:30:00Z").getEpochSecond();
      Instant modelOfDate = scheduler.toModel(web.toWall(event));
      assertThat(Duration.between(modelOfDate, Instant.ofEpochSecond(event)))
          .isBetween(Duration.ZERO, Duration.ofSeconds((long) scale));
    }
  }

  @Test
  void theIntervalBucketsSayTheirModelAndWallSpans() {
    assertThat(Progress.bucketLabel(0, 1440)).isEqualTo("<15m (wall <0.6s)");
    assertThat(Progress.bucketLabel(1, 1440)).isEqualTo("15m-1h (wall 0.6s-2.5s)");
    assertThat(Progress.bucketLabel(4, 1440)).isEqualTo(">=24h (wall >=1min)");
    assertThat(Progress.bucketLabel(3, 60)).isEqualTo("6h-24h (wall 6min-24min)");
    assertThat(Progress.bucketLabel(2, 1)).isEqualTo("1h-6h");
    assertThat(Progress.clockNote(1440))
        .startsWith("model time = wall time x 1440")
        .contains("a model day is 1min of wall time");
  }
}
