package io.freshet.cadence.estimate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Estimates a source's change rate (changes per hour) from what fetches observed, assuming changes
 * arrive as a Poisson process whose rate drifts slowly.
 *
 * <p>Two kinds of evidence:
 *
 * <ul>
 *   <li><b>Publication times</b> (feeds, calendars, APIs): n items over an exposure of T hours; the
 *       maximum-likelihood rate is n/T. Smoothed with a Gamma prior of {@value #PRIOR_WEIGHT}
 *       pseudo-changes over {@value #PRIOR_WEIGHT}/λ₀ hours, so one lucky item does not set the
 *       rate and a source with no items is not estimated at zero.
 *   <li><b>Changed / not changed</b> over irregular intervals (pages): Cho &amp; Garcia-Molina
 *       ("Estimating frequency of change", ACM TOIT 2003, §5 irregular access): the likelihood of
 *       intervals tⱼ of which C changed is Π_C (1 − e^{−λtⱼ}) · Π_U e^{−λtⱼ}; its maximum solves
 *       Σ_C tⱼ / (e^{λtⱼ} − 1) = Σ_U tⱼ. Smoothed as in their estimator for regular intervals, r =
 *       −log((n − X + 0.5)/(n + 0.5))/I: one changed and one unchanged pseudo-interval with weight
 *       {@value #PRIOR_WEIGHT} each, as long as the observed intervals on average (1/λ₀ before
 *       any), so that "always changed" and "never changed" give finite, non-zero rates — for n
 *       regular intervals that all changed, exactly ln(2n + 2)/I.
 * </ul>
 */
public final class ChangeRateEstimator {

  /** Pseudo-observations of the prior. */
  public static final double PRIOR_WEIGHT = 0.5;

  private static final double MIN_RATE = 1e-6;
  private static final double MAX_RATE = 1e4;

  private ChangeRateEstimator() {}

  /**
   * Rate from items' publication times seen within {@code window} before {@code now}. When the
   * oldest listed item is younger than the window, the list may be truncated (a feed shows only its
   * latest items), so the exposure starts at that oldest item and it counts as the boundary, not as
   * a change.
   *
   * @param priorRate λ₀ per hour, e.g. 1 / the category base
   */
  public static double fromPublicationTimes(
      List<Instant> published, Instant now, Duration window, double priorRate) {
    long windowStart = now.minus(window).getEpochSecond();
    long nowS = now.getEpochSecond();
    long oldest = Long.MAX_VALUE;
    int inWindow = 0;
    for (Instant p : published) {
      if (p == null) {
        continue;
      }
      long t = p.getEpochSecond();
      if (t > nowS || t < windowStart) {
        continue;
      }
      inWindow++;
      oldest = Math.min(oldest, t);
    }
    double exposureHours;
    double count;
    boolean truncated = inWindow == published.size() && inWindow > 0;
    if (truncated) {
      exposureHours = (nowS - oldest) / 3600.0;
      count = inWindow - 1;
    } else {
      exposureHours = window.toSeconds() / 3600.0;
      count = inWindow;
    }
    return gammaPosterior(count, exposureHours, priorRate);
  }

  /** Posterior mean of a Poisson rate with the Gamma prior described above. */
  public static double gammaPosterior(double count, double exposureHours, double priorRate) {
    double rate = (count + PRIOR_WEIGHT) / (exposureHours + PRIOR_WEIGHT / priorRate);
    return clamp(rate);
  }

  /**
   * Cho &amp; Garcia-Molina's smoothed maximum-likelihood rate from changed/unchanged intervals.
   *
   * @param intervalHours the length of each observed interval, in hours
   * @param changed whether the source had changed at the end of each interval
   * @param weights how much each observation counts (1 = fully; older evidence less)
   * @param n how many observations of the arrays to use
   * @param priorRate λ₀ per hour
   * @param start a starting guess (e.g. the previous estimate), or ≤ 0 for λ₀
   */
  public static double choGarciaMolina(
      double[] intervalHours,
      boolean[] changed,
      double[] weights,
      int n,
      double priorRate,
      double start) {
    double weightSum = 0;
    double weightedLength = 0;
    for (int j = 0; j < n; j++) {
      weightSum += weights[j];
      weightedLength += weights[j] * intervalHours[j];
    }
    double prior = weightSum > 0 ? weightedLength / weightSum : 1.0 / priorRate;
    double unchangedTotal = PRIOR_WEIGHT * prior;
    for (int j = 0; j < n; j++) {
      if (!changed[j]) {
        unchangedTotal += weights[j] * intervalHours[j];
      }
    }
    // g(λ) = Σ_C w t/(e^{λt} − 1) − Σ_U w t is strictly decreasing; solve g = 0 by safeguarded
    // Newton in log λ, warm-started, falling back to bisection when a step leaves the bracket.
    double lo = Math.log(MIN_RATE);
    double hi = Math.log(MAX_RATE);
    double x = Math.log(start > 0 ? clamp(start) : priorRate);
    for (int it = 0; it < 60; it++) {
      double lambda = Math.exp(x);
      double g = -unchangedTotal;
      double dg = 0;
      // prior pseudo changed interval
      double[] term = changedTerm(prior, lambda);
      g += PRIOR_WEIGHT * term[0];
      dg += PRIOR_WEIGHT * term[1];
      for (int j = 0; j < n; j++) {
        if (changed[j]) {
          term = changedTerm(intervalHours[j], lambda);
          g += weights[j] * term[0];
          dg += weights[j] * term[1];
        }
      }
      if (g > 0) {
        lo = x;
      } else {
        hi = x;
      }
      // dg is d g / d λ (negative); Newton step in log space: Δx = −g / (λ · dg)
      double next = x - g / (lambda * dg);
      if (!(next > lo && next < hi)) {
        next = 0.5 * (lo + hi);
      }
      if (Math.abs(next - x) < 1e-7) {
        x = next;
        break;
      }
      x = next;
    }
    return clamp(Math.exp(x));
  }

  /** t/(e^{λt} − 1) and its derivative in λ: −t² e^{λt}/(e^{λt} − 1)². */
  private static double[] changedTerm(double t, double lambda) {
    double lt = lambda * t;
    if (lt > 700) {
      return new double[] {0, 0};
    }
    double em1 = Math.expm1(lt);
    if (em1 < 1e-12) {
      // limit λt → 0: t/(λt) = 1/λ, derivative −1/λ²
      return new double[] {1 / lambda, -1 / (lambda * lambda)};
    }
    double value = t / em1;
    double derivative = -t * t * (em1 + 1) / (em1 * em1);
    return new double[] {value, derivative};
  }

  private static double clamp(double rate) {
    return Math.max(MIN_RATE, Math.min(MAX_RATE, rate));
  }
}
