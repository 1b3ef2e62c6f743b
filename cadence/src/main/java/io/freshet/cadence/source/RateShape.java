package io.freshet.cadence.source;

/**
 * How a source's change rate varies around its mean over time: λ(t) = λ̄ · m(t), m piecewise
 * constant (an hour-of-week rhythm, a burst after a change, a quiet spell after a long silence).
 * {@code adaptive} spends the fetches its mean rate earns where m is high: for the delay objective
 * the optimal fetch density is ∝ √λ(t) (the square-root rule applied instant by instant), so the
 * next fetch is where ∫ √m(u) du over the wait reaches the mean interval.
 */
public interface RateShape {

  /** m(t) ≥ 0 at {@code epochSecond}. */
  double multiplier(long epochSecond);

  /** The first instant after {@code epochSecond} at which m may change (> epochSecond). */
  long constantUntil(long epochSecond);

  /**
   * Seconds from {@code fromEpochSecond} to the next fetch: the wait over which ∫ √m(u) du equals
   * {@code meanIntervalSeconds}, clamped to [{@code minSeconds}, {@code maxSeconds}].
   */
  static long wait(
      RateShape shape,
      long fromEpochSecond,
      double meanIntervalSeconds,
      long minSeconds,
      long maxSeconds) {
    double need = meanIntervalSeconds;
    long t = fromEpochSecond;
    long limit = fromEpochSecond + maxSeconds;
    while (t < limit) {
      long end = Math.min(limit, Math.max(t + 1, shape.constantUntil(t)));
      double speed = Math.sqrt(Math.max(0, shape.multiplier(t)));
      double span = (end - t) * speed;
      if (span >= need) {
        t += (long) Math.ceil(need / speed);
        break;
      }
      need -= span;
      t = end;
    }
    long w = Math.min(t, limit) - fromEpochSecond;
    return Math.max(minSeconds, Math.min(maxSeconds, w));
  }
}
