package io.freshet.stack.demoweb;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * Maps wall-clock time to trace time and back: at {@code origin} (wall) the trace is at {@code
 * traceStart}, and it runs {@code scale} times faster (1440 = a trace day per wall minute).
 *
 * <p>Documents are dated in wall time (a trace event at {@code t} is dated {@link #toWall(long)}),
 * so the services, whose clocks are the wall clock, see a world that changes {@code scale} times
 * faster than the traces did.
 */
public final class ScaledClock {

  private final Clock wall;
  private final Instant origin;
  private final long traceStartSeconds;
  private final double scale;

  /**
   * @param wall the wall clock (injected so tests control it)
   * @param origin the wall instant at which the trace is at {@code traceStart}
   * @param traceStart the trace instant replayed at {@code origin}
   * @param scale trace seconds per wall second, positive
   */
  public ScaledClock(Clock wall, Instant origin, Instant traceStart, double scale) {
    this.wall = Objects.requireNonNull(wall, "wall");
    // Whole seconds: documents carry wall dates, and some parsers misread nanosecond fractions.
    this.origin = Objects.requireNonNull(origin, "origin").truncatedTo(ChronoUnit.SECONDS);
    this.traceStartSeconds = traceStart.getEpochSecond();
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("scale must be a positive number, got " + scale);
    }
    this.scale = scale;
  }

  /** The trace time now, in epoch seconds. */
  public long traceNow() {
    return toTrace(wall.instant());
  }

  /** The wall instant now. */
  public Instant wallNow() {
    return wall.instant();
  }

  /** The trace time (epoch seconds) at a wall instant. */
  public long toTrace(Instant wallInstant) {
    double wallSeconds = Duration.between(origin, wallInstant).toNanos() / 1e9;
    return traceStartSeconds + (long) Math.floor(wallSeconds * scale);
  }

  /** The wall instant at which the trace reaches {@code traceSeconds}, in whole seconds. */
  public Instant toWall(long traceSeconds) {
    double wallSeconds = (traceSeconds - traceStartSeconds) / scale;
    return origin.plusSeconds((long) Math.floor(wallSeconds));
  }

  /** The trace instant replayed at the origin, in epoch seconds. */
  public long traceStart() {
    return traceStartSeconds;
  }

  public Instant origin() {
    return origin;
  }

  public double scale() {
    return scale;
  }
}
