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

  @Override
  public double onFetch(FetchObservation obs) {
    int n = obs.listedCount();
    double seconds;
    if (n == 0) {
      seconds = MAX_INTERVAL;
    } else {
      long newest = obs.listedTime(n - 1);
      long days = Math.floorDiv(obs.now() - newest, 86400L);
      if (days >= 30) {
        seconds = MAX_INTERVAL;
      } else if (days >= 14) {
        seconds = MAX_INTERVAL / 2;
      } else if (days >= 7) {
        seconds = MAX_INTERVAL / 4;
      } else if (n >= 2) {
        // mean of |tᵢ − tᵢ₊₁| over the entries sorted by date = span / (n − 1)
        double average = (double) (newest - obs.listedTime(0)) / (n - 1);
        seconds = Math.max(INTERVAL, Math.min(MAX_INTERVAL / 4, average / 2));
      } else {
        seconds = MAX_INTERVAL;
      }
    }
    return Math.max(INTERVAL, Math.min(MAX_INTERVAL, seconds));
  }
}
