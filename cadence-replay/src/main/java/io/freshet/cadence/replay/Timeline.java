package io.freshet.cadence.replay;

import java.time.Duration;
import java.time.Instant;

/**
 * The simulated timeline the recorded events lived on. The services stamp every event with the wall
 * clock ({@code finished_at}, the record time, and the publication and event dates the sources
 * showed), but a scaled demo runs its world {@code scale} times faster: the local stack's demo web
 * and the scheduler's cadence run at {@code FRESHET_DEMO_SCALE} (1440, a simulated day per wall
 * minute), with simulated time {@code modelOrigin} at wall time {@code wallOrigin}. The replay maps
 * every recorded instant onto that timeline, so that a window of 10 wall minutes is simulated as
 * the 10 days it was, at the same times of day as the scheduler saw them.
 *
 * @param scale simulated seconds per wall second (1 = the events are in real time)
 * @param wallOrigin a wall instant
 * @param modelOrigin the simulated time at {@code wallOrigin}
 */
record Timeline(double scale, Instant wallOrigin, Instant modelOrigin) {

  Timeline {
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("scale must be a positive number, got " + scale);
    }
  }

  /** Events recorded in real time: the identity. */
  static Timeline real() {
    return new Timeline(1, Instant.EPOCH, Instant.EPOCH);
  }

  boolean isReal() {
    return scale == 1 && wallOrigin.equals(modelOrigin);
  }

  /** The simulated instant of a recorded (wall) instant, to the millisecond. */
  Instant toModel(Instant wall) {
    if (isReal()) {
      return wall;
    }
    double wallMillis = Duration.between(wallOrigin, wall).toMillis();
    return modelOrigin.plusMillis(Math.round(wallMillis * scale));
  }

  /** A wall span in simulated hours. */
  double modelHours(Instant wallFrom, Instant wallTo) {
    return Duration.between(wallFrom, wallTo).toMillis() * scale / 3_600_000.0;
  }
}
