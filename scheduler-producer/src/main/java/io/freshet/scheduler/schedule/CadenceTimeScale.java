package io.freshet.scheduler.schedule;

import io.freshet.cadence.source.Outcome;
import io.freshet.cadence.source.SourceSnapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The clock the cadence model runs on, against the wall clock: at {@code wallOrigin} the model is
 * at {@code modelOrigin}, and it runs {@code scale} times faster. Scale 1 (the default, and the
 * only sensible value in production) is the identity.
 *
 * <p>It exists for replays at a faster pace, such as the local demo, whose web replays real change
 * traces at a trace day per wall minute: with the demo's origin and scale here, the cadence model
 * sees trace time exactly (rhythms by time of day fall on the trace's days), its 15 min – 24 h
 * intervals become 15 min / scale – 24 h / scale of wall time, and a busy source is fetched as
 * often, relative to its publishing, as it would be in real time.
 *
 * <p>What is mapped is what is denominated in time: the snapshot's instants ({@code last_fetch_at},
 * {@code retry_after}, recent publication times) and the outcome's instant are mapped in; the
 * publish interval and the days to an event are multiplied by the scale; the change rate per hour
 * is divided by it. Counts, yields and signal types are not time. The due instant the model
 * computes is mapped back to wall time.
 *
 * <p>Pure: no clock of its own, no Spring.
 */
public final class CadenceTimeScale {

  private static final CadenceTimeScale IDENTITY =
      new CadenceTimeScale(1.0, Instant.EPOCH, Instant.EPOCH);

  private final double scale;
  private final Instant wallOrigin;
  private final Instant modelOrigin;

  /**
   * @param scale model seconds per wall second; positive and finite
   * @param wallOrigin the wall instant at which the model is at {@code modelOrigin}
   * @param modelOrigin the model instant at {@code wallOrigin}
   */
  public CadenceTimeScale(double scale, Instant wallOrigin, Instant modelOrigin) {
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException(
          "freshet.scheduler.cadence-time.scale must be a positive, finite number, got " + scale);
    }
    this.scale = scale;
    this.wallOrigin = Objects.requireNonNull(wallOrigin, "wallOrigin");
    this.modelOrigin = Objects.requireNonNull(modelOrigin, "modelOrigin");
  }

  /** Real time: every mapping returns its argument. */
  public static CadenceTimeScale identity() {
    return IDENTITY;
  }

  public boolean isIdentity() {
    return scale == 1.0 && wallOrigin.equals(modelOrigin);
  }

  public double scale() {
    return scale;
  }

  /** The model instant at a wall instant; null stays null. */
  public Instant toModel(Instant wall) {
    if (wall == null || isIdentity()) {
      return wall;
    }
    return modelOrigin.plus(times(Duration.between(wallOrigin, wall), scale));
  }

  /** The wall instant at a model instant; null stays null. */
  public Instant toWall(Instant model) {
    if (model == null || isIdentity()) {
      return model;
    }
    return wallOrigin.plus(times(Duration.between(modelOrigin, model), 1.0 / scale));
  }

  /** The snapshot as the model sees it (see the class comment for what is mapped). */
  public SourceSnapshot toModel(SourceSnapshot s) {
    if (isIdentity()) {
      return s;
    }
    return s.toBuilder()
        .lastFetchAt(toModel(s.lastFetchAt()))
        .retryAfter(toModel(s.retryAfter()))
        .recentPublishedAt(s.recentPublishedAt().stream().map(this::toModel).toList())
        .publishIntervalAvg(
            s.publishIntervalAvg() == null ? null : times(s.publishIntervalAvg(), scale))
        .changeRatePerHour(s.changeRatePerHour() == null ? null : s.changeRatePerHour() / scale)
        .medianDaysToEvent(s.medianDaysToEvent() == null ? null : s.medianDaysToEvent() * scale)
        .build();
  }

  /** The outcome with its instant (and a {@code Retry-After}'s) in model time. */
  public Outcome toModel(Outcome o) {
    if (isIdentity()) {
      return o;
    }
    return switch (o) {
      case Outcome.Success s -> new Outcome.Success(toModel(s.at()));
      case Outcome.NotModified n -> new Outcome.NotModified(toModel(n.at()));
      case Outcome.Failure f -> new Outcome.Failure(toModel(f.at()), toModel(f.retryAfter()));
    };
  }

  private static Duration times(Duration d, double factor) {
    // In double seconds: sub-microsecond precision for any span a source's history holds.
    double seconds = (d.getSeconds() + d.getNano() / 1e9) * factor;
    double whole = Math.floor(seconds);
    return Duration.ofSeconds((long) whole, Math.round((seconds - whole) * 1e9));
  }

  @Override
  public String toString() {
    return isIdentity()
        ? "real time"
        : "model = " + modelOrigin + " + (wall - " + wallOrigin + ") x " + scale;
  }
}
