package io.freshet.cadence.sim.peer;

import io.freshet.cadence.sim.FetchObservation;
import io.freshet.cadence.sim.SimPolicy;

/**
 * CommaFeed's empirical refresh interval (com.commafeed.backend.feed.FeedRefreshIntervalCalculator,
 * {@code feed-refresh.interval} = 5 min, {@code feed-refresh.max-interval} = 4 h, {@code
 * interval-empirical} = true). With P the newest entry's publication date and A the mean gap
 * between the listed entries' dates: no P → max; P ≥ 30 days old → max; ≥ 14 days → max/2; ≥ 7 days
 * → max/4; otherwise A/2 clamped to [interval, max/4]; no A → max. The result is kept within
 * [interval, max]. Pages list no entries, so they always get the max.
 */
public final class CommaFeedEmpiricalPolicy implements SimPolicy {

  static final double INTERVAL = 5 * 60;
  static final double MAX_INTERVAL = 4 * 3600;
  static final double DIVISOR = 2;

  private final double max;
  private final double divisor;

  public CommaFeedEmpiricalPolicy() {
    this(MAX_INTERVAL, DIVISOR);
  }

  /**
   * With its main knobs set (for tuning): {@code max-interval} (seconds) and the divisor of the
   * mean entry gap (2 in CommaFeed).
   */
  public CommaFeedEmpiricalPolicy(double maxIntervalSeconds, double divisor) {
    if (!(maxIntervalSeconds >= INTERVAL) || !(divisor > 0)) {
      throw new IllegalArgumentException("max ≥ 5 min, divisor > 0");
    }
    this.max = maxIntervalSeconds;
    this.divisor = divisor;
  }

  @Override
  public double onFetch(FetchObservation obs) {
    int n = obs.listedCount();
    double seconds;
    if (n == 0) {
      seconds = max;
    } else {
      long newest = obs.listedTime(n - 1);
      long days = Math.floorDiv(obs.now() - newest, 86400L);
      if (days >= 30) {
        seconds = max;
      } else if (days >= 14) {
        seconds = max / 2;
      } else if (days >= 7) {
        seconds = max / 4;
      } else if (n >= 2) {
        // mean of |tᵢ − tᵢ₊₁| over the entries sorted by date = span / (n − 1)
        double average = (double) (newest - obs.listedTime(0)) / (n - 1);
        seconds = Math.max(INTERVAL, Math.min(max / 4, average / divisor));
      } else {
        seconds = max;
      }
    }
    return Math.max(INTERVAL, Math.min(max, seconds));
  }
}
