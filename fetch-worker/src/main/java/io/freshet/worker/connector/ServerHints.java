package io.freshet.worker.connector;

import io.freshet.worker.http.HttpResult;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a fetch learned of how the source wants to be read: its freshness hints (HTTP caching
 * headers, RSS {@code <ttl>}, the syndication module's update period, {@code skipHours} and {@code
 * skipDays}), where it has moved (permanent redirects only), and the URLs it gives for itself and
 * its WebSub hub. Reported in {@code FetchCompleted}; the scheduler decides what to do with them.
 * Null fields and empty sets mean "not said".
 *
 * @param maxAge the response's freshness lifetime ({@code Cache-Control}/{@code Expires})
 * @param ttlMinutes RSS {@code <ttl>}
 * @param updatePeriod {@code sy:updatePeriod} / {@code sy:updateFrequency}
 * @param skipHours hours of the day (0–23, GMT) the channel asks not to be read
 * @param skipDays ISO days (1 = Monday … 7 = Sunday) the channel asks not to be read
 * @param movedTo the URL that answered through permanent redirects only
 * @param selfUrl the document's own URL (atom:link rel=self or a Link header)
 * @param hubUrl the WebSub hub the document or the response announces
 */
public record ServerHints(
    Duration maxAge,
    Integer ttlMinutes,
    Duration updatePeriod,
    SortedSet<Integer> skipHours,
    SortedSet<Integer> skipDays,
    URI movedTo,
    String selfUrl,
    String hubUrl) {

  public static final ServerHints NONE =
      new ServerHints(null, null, null, new TreeSet<>(), new TreeSet<>(), null, null, null);

  public ServerHints {
    skipHours = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(skipHours));
    skipDays = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(skipDays));
  }

  /** What the HTTP response said: caching headers, permanent moves, {@code Link} headers. */
  public static ServerHints of(HttpResult http) {
    return new ServerHints(
        http.maxAge(),
        null,
        null,
        Set.of(),
        Set.of(),
        http.movedTo(),
        http.selfLink(),
        http.hubLink());
  }

  private ServerHints(
      Duration maxAge,
      Integer ttlMinutes,
      Duration updatePeriod,
      Set<Integer> skipHours,
      Set<Integer> skipDays,
      URI movedTo,
      String selfUrl,
      String hubUrl) {
    this(
        maxAge,
        ttlMinutes,
        updatePeriod,
        new TreeSet<>(skipHours),
        new TreeSet<>(skipDays),
        movedTo,
        selfUrl,
        hubUrl);
  }

  /** These hints with what the document itself says on top (the document wins where both do). */
  public ServerHints withDocument(ServerHints document) {
    return new ServerHints(
        document.maxAge != null ? document.maxAge : maxAge,
        document.ttlMinutes != null ? document.ttlMinutes : ttlMinutes,
        document.updatePeriod != null ? document.updatePeriod : updatePeriod,
        document.skipHours.isEmpty() ? skipHours : document.skipHours,
        document.skipDays.isEmpty() ? skipDays : document.skipDays,
        document.movedTo != null ? document.movedTo : movedTo,
        document.selfUrl != null ? document.selfUrl : selfUrl,
        document.hubUrl != null ? document.hubUrl : hubUrl);
  }

  /** Whether any freshness hint was given (moves and links aside). */
  public boolean limitsFreshness() {
    return maxAge != null
        || ttlMinutes != null
        || updatePeriod != null
        || !skipHours.isEmpty()
        || !skipDays.isEmpty();
  }
}
