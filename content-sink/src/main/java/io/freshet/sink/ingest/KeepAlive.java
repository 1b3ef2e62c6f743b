package io.freshet.sink.ingest;

import java.time.Duration;
import java.time.Instant;

/**
 * How coarsely the sink keeps a version's expiry, and when a 304 ("not modified") rewrites a
 * version it keeps alive: the rules that {@link ContentUpserter}'s statements apply row by row in
 * SQL, written here once in plain Java (the statements' tests check the database against them).
 *
 * <p>The TTL rule is {@code expires_at = (the latest time the source listed the version) +
 * retention}. Applied exactly, every listing rewrites the row's indexed {@code expires_at}: a new
 * row version with an entry in each of the table's indexes (not HOT), for every version a fetch
 * lists — every item of a feed on every full read, everything the last full read listed on every
 * 304. With the granularity {@code g = min(cap, retention / 100)}:
 *
 * <ul>
 *   <li>a new version is stored with its expiry {@code g} past the rule; an arrival or a full read
 *       ({@code ok}/{@code partial}) that lists a stored version sets its {@code last_seen_at}
 *       exactly and moves its expiry only when the stored one is earlier than the rule's, then
 *       {@code g} past it ({@link #listedExpiresAt}) — so the listings of the next {@code g} move
 *       only {@code last_seen_at}, which no index holds, and can be HOT updates;
 *   <li>a 304 at {@code at} rewrites a row only when the rule would move its expiry later than the
 *       stored one, or its {@code last_seen_at} lags {@code at} by more than {@code g}; and when it
 *       does, it sets {@code last_seen_at = at} and pushes the expiry {@code g} past the rule
 *       ({@link #rewrites}, {@link #expiresAt}), so the next 304s within {@code g} leave the row
 *       alone.
 * </ul>
 *
 * Hence, for a version the source keeps listing:
 *
 * <ul>
 *   <li>its expiry is never earlier than the rule's, and at most {@code g} later;
 *   <li>its {@code last_seen_at} is at most {@code g} older than the latest 304 that listed it, and
 *       exact for full reads and arriving content (a later 304 finds what the last full read listed
 *       by {@code last_seen_at}).
 * </ul>
 *
 * <p>A cap of zero is the exact rule (every listing moves both columns, as before; only rows it
 * would not change are skipped).
 *
 * @param cap the largest granularity ({@code freshet.sink.keep-alive-granularity}, 1 h)
 */
public record KeepAlive(Duration cap) {

  /** The default: at most an hour, and at most 1 % of a version's retention. */
  public static final KeepAlive DEFAULT = new KeepAlive(Duration.ofHours(1));

  /** Exactly the TTL rule, every 304 rewrites what it moves. */
  public static final KeepAlive EXACT = new KeepAlive(Duration.ZERO);

  public KeepAlive {
    if (cap.isNegative()) {
      throw new IllegalArgumentException("keep-alive granularity must not be negative: " + cap);
    }
  }

  /** {@code g} for a version kept {@code retentionMs}: {@code min(cap, retention / 100)}. */
  public long granularityMs(long retentionMs) {
    return Math.min(cap.toMillis(), Math.max(0, retentionMs) / 100);
  }

  /** Whether a 304 at {@code at} rewrites a listed version stored with these values. */
  public boolean rewrites(Instant lastSeenAt, Instant expiresAt, long retentionMs, Instant at) {
    return expiresAt.isBefore(at.plusMillis(retentionMs))
        || lastSeenAt.plusMillis(granularityMs(retentionMs)).isBefore(at);
  }

  /**
   * The expiry a full read ({@code ok}/{@code partial}) that listed a version at {@code at} leaves
   * it: the stored one while that is not earlier than the rule's {@code at + retention}, else the
   * rule's padded by {@code g}. Such a read sets {@code last_seen_at} exactly (a later 304 finds
   * what the read listed by it), which alone touches no index; moving the indexed {@code
   * expires_at} only once per {@code g} lets most listings be HOT updates.
   */
  public Instant listedExpiresAt(Instant storedExpiresAt, long retentionMs, Instant at) {
    Instant rule = at.plusMillis(retentionMs);
    return storedExpiresAt.isBefore(rule)
        ? rule.plusMillis(granularityMs(retentionMs))
        : storedExpiresAt;
  }

  /** The expiry a rewrite by a 304 at {@code at} stores (never below the stored one). */
  public Instant expiresAt(Instant storedExpiresAt, long retentionMs, Instant at) {
    Instant padded = at.plusMillis(retentionMs + granularityMs(retentionMs));
    return padded.isAfter(storedExpiresAt) ? padded : storedExpiresAt;
  }
}
