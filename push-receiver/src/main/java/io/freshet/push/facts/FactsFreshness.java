package io.freshet.push.facts;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When a fetch's facts rewrite a source's row in {@code push.sources}: the rule that {@link
 * SourceFacts}' statements apply row by row in SQL, written here once in plain Java (their tests
 * check the database against it).
 *
 * <p>Every fetch passes the receiver twice (FetchRequested, FetchCompleted), and writing what each
 * says exactly makes a new row version per fetch — although the URL, the credentials flag and the
 * hub of a source hardly ever change. What reads the row: a round's {@code createMissing} and
 * {@code open} (hub, self URL, URL, private, tenant, and {@code announced_at >= now -
 * max-silence}); nothing reads {@code requested_at} or {@code updated_at}. So a fact rewrites the
 * row only when it changes a column a reader uses, or when the timestamp it moves lags it by more
 * than the granularity {@code g = min(cap, max-silence / 10)}:
 *
 * <ul>
 *   <li>a request, when the tenant, URL or credentials flag differ, or the stored {@code
 *       requested_at} is null or more than {@code g} before the request;
 *   <li>a read document ({@code ok}, {@code partial}), when the hub or self URL differ, or it
 *       announces a hub and the stored {@code announced_at} is null or more than {@code g} before
 *       it;
 *   <li>a 304, when the row has a hub and its {@code announced_at} is null or more than {@code g}
 *       before it.
 * </ul>
 *
 * <p>Hence a stored {@code announced_at} is at most {@code g} older than the latest fetch that
 * announced the hub, and the rounds count a source as wanting push when it was announced since
 * {@link #wantedSince} {@code = now - max-silence - g}: a source is never unsubscribed earlier than
 * with exact timestamps, and at most {@code g} later. A cap of zero is the exact rule: every fact
 * that moves a timestamp forward rewrites it (one that moves nothing writes nothing, and an older
 * announcement no longer moves {@code announced_at} back).
 *
 * @param granularity {@code g}, already capped by max-silence
 */
public record FactsFreshness(Duration granularity) {

  /** The default cap ({@code freshet.push.facts-granularity}). */
  public static final Duration DEFAULT_CAP = Duration.ofHours(1);

  /** Exact timestamps: every fact that moves one writes it. */
  public static final FactsFreshness EXACT = new FactsFreshness(Duration.ZERO);

  public FactsFreshness {
    if (granularity == null || granularity.isNegative()) {
      throw new IllegalArgumentException("facts granularity must not be negative: " + granularity);
    }
  }

  /** {@code g = min(cap, maxSilence / 10)}; a null cap is the default. */
  public static FactsFreshness of(Duration cap, Duration maxSilence) {
    Duration c = cap == null ? DEFAULT_CAP : cap;
    if (c.isNegative()) {
      throw new IllegalArgumentException(
          "freshet.push.facts-granularity must not be negative: " + c);
    }
    Duration tenth = maxSilence.dividedBy(10);
    return new FactsFreshness(c.compareTo(tenth) <= 0 ? c : tenth);
  }

  /** {@code g} in milliseconds (what the statements compare with). */
  public long granularityMs() {
    return granularity.toMillis();
  }

  /** What a row holds of the columns the rule looks at ({@code null} for no row at all). */
  public record Stored(
      String tenantId,
      String url,
      boolean credentials,
      String hubUrl,
      String selfUrl,
      Instant announcedAt,
      Instant requestedAt) {}

  /** Whether a request (tenant, URL as stored, credentials flag, at) rewrites the row. */
  public boolean requestWrites(
      Stored row, String tenantId, String url, boolean credentials, Instant at) {
    return row == null
        || !Objects.equals(row.tenantId(), tenantId)
        || !Objects.equals(row.url(), url)
        || row.credentials() != credentials
        || lags(row.requestedAt(), at);
  }

  /** Whether a read document announcing {@code hub} and {@code self} (as stored) rewrites it. */
  public boolean announcementWrites(Stored row, String hub, String self, Instant at) {
    return row == null
        || !Objects.equals(row.hubUrl(), hub)
        || !Objects.equals(row.selfUrl(), self)
        || (hub != null && lags(row.announcedAt(), at));
  }

  /** Whether a 304 at {@code at} rewrites the row (never one without a hub, nor a missing one). */
  public boolean notModifiedWrites(Stored row, Instant at) {
    return row != null && row.hubUrl() != null && lags(row.announcedAt(), at);
  }

  /** A stored time lags {@code at} by more than {@code g} (or there is none). */
  boolean lags(Instant stored, Instant at) {
    return stored == null || stored.plus(granularity).isBefore(at);
  }

  /**
   * The earliest stored {@code announced_at} of a source that still wants push at {@code now}:
   * {@code g} before {@code now - maxSilence}, since a stored one lags the latest announcement by
   * up to {@code g}.
   */
  public Instant wantedSince(Instant now, Duration maxSilence) {
    return now.minus(maxSilence).minus(granularity);
  }
}
