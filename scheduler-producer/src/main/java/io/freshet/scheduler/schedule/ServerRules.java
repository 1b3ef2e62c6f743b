package io.freshet.scheduler.schedule;

import io.freshet.schemas.avro.ServerHints;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The server's rules on top of the cadence (docs/design.md, "The server's rules"): its freshness
 * hints as a floor under the next due time, each capped; a refusal by robots.txt and repeated 404s
 * backed off to the ceiling. Pure: {@link OutcomeRules} asks, with the settings.
 *
 * @param maxHint the longest any server hint may hold a source back, {@code Retry-After} included
 *     (default 24 h, the cadence's interval ceiling): a bogus {@code max-age} of a year, or {@code
 *     Retry-After: Fri, 31 Dec 9999}, cannot silence a source for longer
 * @param ceiling the wait after a robots.txt refusal, and after {@code notFoundMisses} 404s in a
 *     row
 * @param notFoundMisses consecutive 404s after which a source waits {@code ceiling} between tries
 *     and counts as failing
 * @param intervalJitter share of the interval added as per-source jitter to a success's due time
 * @param intervalJitterMax most jitter added to a success's due time
 * @param backoffJitter share of the wait added as jitter to a failure's or deferral's due time
 * @param backoffJitterMax most jitter added to a failure's or deferral's due time
 */
public record ServerRules(
    Duration maxHint,
    Duration ceiling,
    int notFoundMisses,
    double intervalJitter,
    Duration intervalJitterMax,
    double backoffJitter,
    Duration backoffJitterMax) {

  /** The defaults of {@code freshet.scheduler.web.*}. */
  public static final ServerRules DEFAULTS =
      new ServerRules(
          Duration.ofHours(24),
          Duration.ofHours(24),
          3,
          0.02,
          Duration.ofMinutes(2),
          0.1,
          Duration.ofMinutes(15));

  /** The defaults without jitter: due times exactly as the cadence and the hints give them. */
  public static final ServerRules NO_JITTER = DEFAULTS.withoutJitter();

  /** These rules with no jitter. */
  public ServerRules withoutJitter() {
    return new ServerRules(maxHint, ceiling, notFoundMisses, 0, Duration.ZERO, 0, Duration.ZERO);
  }

  /** {@code retryAfter}, no later than {@link #maxHint} after {@code at}; null stays null. */
  public Instant capRetryAfter(Instant retryAfter, Instant at) {
    if (retryAfter == null) {
      return null;
    }
    Instant latest = at.plus(maxHint);
    return retryAfter.isAfter(latest) ? latest : retryAfter;
  }

  /** The floor the hints put under a due time, and which hint set it. */
  public record HintFloor(Instant due, String hint) {}

  /**
   * {@code due} raised to what the hints allow after a fetch at {@code at}: not before the longest
   * of {@code max-age}, {@code <ttl>} and the update period, each capped at {@link #maxHint}, and
   * then out of the skipped hours and days (GMT) — but never moved more than {@link #maxHint} past
   * {@code at} by hints (a feed that skips every hour but one is still read within a day).
   *
   * @return the raised due time and the hint that raised it, or null when the hints allow {@code
   *     due} as it is
   */
  public HintFloor hintFloor(ServerHints hints, Instant due, Instant at) {
    if (hints == null) {
      return null;
    }
    Instant latest = at.plus(maxHint);
    Instant floor = due;
    String which = null;
    if (hints.getMaxAgeSeconds() != null) {
      Instant f = capped(at, Duration.ofSeconds(Math.max(0, hints.getMaxAgeSeconds())), latest);
      if (f.isAfter(floor)) {
        floor = f;
        which = "max_age";
      }
    }
    if (hints.getTtlMinutes() != null) {
      Instant f = capped(at, Duration.ofMinutes(Math.max(0, hints.getTtlMinutes())), latest);
      if (f.isAfter(floor)) {
        floor = f;
        which = "ttl";
      }
    }
    if (hints.getUpdatePeriodSeconds() != null) {
      Instant f =
          capped(at, Duration.ofSeconds(Math.max(0, hints.getUpdatePeriodSeconds())), latest);
      if (f.isAfter(floor)) {
        floor = f;
        which = "update_period";
      }
    }
    Instant outside = outsideSkips(floor, hints.getSkipHours(), hints.getSkipDays());
    if (outside.isAfter(floor)) {
      Instant bound = floor.isAfter(latest) ? floor : latest;
      floor = outside.isAfter(bound) ? bound : outside;
      which = "skip";
    }
    return which == null ? null : new HintFloor(floor, which);
  }

  // Compared as durations first: a hint of Long.MAX_VALUE seconds (from a buggy or hostile
  // writer) must cap, not overflow the instant and make the outcome a poison record.
  private static Instant capped(Instant at, Duration hint, Instant latest) {
    return hint.compareTo(Duration.between(at, latest)) >= 0 ? latest : at.plus(hint);
  }

  /** The first instant at or after {@code due} in an hour and on a day (GMT) not skipped. */
  static Instant outsideSkips(Instant due, List<Integer> skipHours, List<Integer> skipDays) {
    if ((skipHours == null || skipHours.isEmpty()) && (skipDays == null || skipDays.isEmpty())) {
      return due;
    }
    ZonedDateTime t = due.atZone(ZoneOffset.UTC);
    for (int step = 0; step < 8 * 24; step++) {
      boolean hourSkipped = skipHours != null && skipHours.contains(t.getHour());
      boolean daySkipped = skipDays != null && skipDays.contains(t.getDayOfWeek().getValue());
      if (!hourSkipped && !daySkipped) {
        return t.toInstant();
      }
      t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
    }
    return due; // every hour of the week skipped: no hint
  }
}
