package io.freshet.sink.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class KeepAliveTest {

  private static final long DAY = Duration.ofDays(1).toMillis();
  private static final long HOUR = Duration.ofHours(1).toMillis();
  private static final Instant T = Instant.parse("2026-11-01T00:00:00Z");

  @Test
  void theGranularityIsTheCapOrOnePercentOfTheRetentionWhicheverIsSmaller() {
    assertThat(KeepAlive.DEFAULT.granularityMs(90 * DAY)).isEqualTo(HOUR);
    assertThat(KeepAlive.DEFAULT.granularityMs(DAY)).isEqualTo(DAY / 100);
    assertThat(KeepAlive.DEFAULT.granularityMs(0)).isZero();
    assertThat(KeepAlive.EXACT.granularityMs(90 * DAY)).isZero();
    assertThatThrownBy(() -> new KeepAlive(Duration.ofMinutes(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aVersionWithinTheGranularityIsNotRewrittenOneBeyondIs() {
    KeepAlive k = KeepAlive.DEFAULT;
    long g = k.granularityMs(DAY);
    // a full read listed it at T (exact rule): the first 304 after moves it, g past the rule
    Instant at1 = T.plusSeconds(60);
    assertThat(k.rewrites(T, T.plusMillis(DAY), DAY, at1)).isTrue();
    Instant expires = k.expiresAt(T.plusMillis(DAY), DAY, at1);
    assertThat(expires).isEqualTo(at1.plusMillis(DAY + g));
    // 304s within g of that leave it alone; one beyond rewrites it
    assertThat(k.rewrites(at1, expires, DAY, at1.plusMillis(g))).isFalse();
    assertThat(k.rewrites(at1, expires, DAY, at1.plusMillis(g + 1))).isTrue();
  }

  @Test
  void theExpiryIsNeverEarlierThanTheRuleAndAtMostTheGranularityLater() {
    KeepAlive k = KeepAlive.DEFAULT;
    long g = k.granularityMs(DAY);
    Instant lastSeen = T;
    Instant expires = T.plusMillis(DAY);
    for (long s = 1; s < 10_000; s += 37) {
      Instant at = T.plusSeconds(s);
      if (k.rewrites(lastSeen, expires, DAY, at)) {
        expires = k.expiresAt(expires, DAY, at);
        lastSeen = at;
      }
      assertThat(expires)
          .isAfterOrEqualTo(at.plusMillis(DAY))
          .isBeforeOrEqualTo(at.plusMillis(DAY + g));
      assertThat(lastSeen).isAfterOrEqualTo(at.minusMillis(g)).isBeforeOrEqualTo(at);
    }
  }

  @Test
  void theExactRuleRewritesWhateverA304Moves() {
    assertThat(KeepAlive.EXACT.rewrites(T, T.plusMillis(DAY), DAY, T.plusMillis(1))).isTrue();
    assertThat(KeepAlive.EXACT.expiresAt(T.plusMillis(DAY), DAY, T.plusMillis(1)))
        .isEqualTo(T.plusMillis(DAY + 1));
    assertThat(KeepAlive.EXACT.rewrites(T, T.plusMillis(DAY), DAY, T)).isFalse();
  }

  @Test
  void aListingMovesTheExpiryOnlyWhenItWouldFallBelowTheRuleThenPadsIt() {
    KeepAlive k = KeepAlive.DEFAULT;
    long g = k.granularityMs(DAY);
    // stored by a read at T: the next listing a minute later is below the rule, padded by g
    Instant at1 = T.plusSeconds(60);
    Instant expires = k.listedExpiresAt(T.plusMillis(DAY), DAY, at1);
    assertThat(expires).isEqualTo(at1.plusMillis(DAY + g));
    // listings within g keep it; the first beyond moves it again
    assertThat(k.listedExpiresAt(expires, DAY, at1.plusMillis(g))).isEqualTo(expires);
    assertThat(k.listedExpiresAt(expires, DAY, at1.plusMillis(g + 1)))
        .isEqualTo(at1.plusMillis(DAY + 2 * g + 1));
    // a listing older than the stored expiry's rule (a late outcome) never moves it back
    assertThat(k.listedExpiresAt(expires, DAY, T)).isEqualTo(expires);
    // exact: the rule itself
    assertThat(KeepAlive.EXACT.listedExpiresAt(T.plusMillis(DAY), DAY, at1))
        .isEqualTo(at1.plusMillis(DAY));
  }

  @Test
  void underListingsTheExpiryIsNeverEarlierThanTheRuleAndAtMostTheGranularityLater() {
    KeepAlive k = KeepAlive.DEFAULT;
    long g = k.granularityMs(DAY);
    Instant expires = T.plusMillis(DAY);
    int moves = 0;
    for (long s = 1; s < 10_000; s += 37) {
      Instant at = T.plusSeconds(s);
      Instant next = k.listedExpiresAt(expires, DAY, at);
      moves += next.equals(expires) ? 0 : 1;
      expires = next;
      assertThat(expires)
          .isAfterOrEqualTo(at.plusMillis(DAY))
          .isBeforeOrEqualTo(at.plusMillis(DAY + g));
    }
    // 271 listings over 10,000 s, g = 864 s: the expiry moved about once per g, not every time
    assertThat(moves).isBetween(11, 13);
  }
}
