package io.freshet.worker.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every setting of the fetch-worker ({@code freshet.*}); defaults live here and only here (the
 * fetch-once CLI binds the same record). Each key is listed in {@code application.yml} and can be
 * set from the environment, e.g. {@code FRESHET_POLITENESS_MIN_DELAY=2s}.
 *
 * @param worker the Kafka side of the service
 * @param http how sources are called
 * @param politeness per-host manners
 * @param items item limits, windows and body cap
 * @param signals keyword rules of the default classifier
 * @param budget what one fetch's parsing may spend
 * @param robots which sources obey robots.txt, and how it is kept
 */
@Validated
@ConfigurationProperties("freshet")
public record WorkerProperties(
    @Valid @DefaultValue Worker worker,
    @Valid @DefaultValue Http http,
    @Valid @DefaultValue Politeness politeness,
    @Valid @DefaultValue Items items,
    @Valid @DefaultValue Signals signals,
    @Valid @DefaultValue Budget budget,
    @Valid @DefaultValue Robots robots) {

  /**
   * @param consumers consumer threads of this instance, each with its own partitions and Kafka
   *     transaction; a slow host holds up only its own partition's batch. Beyond the partition
   *     count they idle.
   * @param credentialsKey base64 32-byte key that opens {@code credentials_encrypted}; empty = none
   *     (sources with credentials then fail with error_kind credentials)
   * @param transactionIdPrefix prefix of the Kafka transactional ids; must differ between live
   *     instances. Empty = a random one per start; a stable one per instance (e.g. the pod name)
   *     lets a restarted instance abort its predecessor's open transaction at once instead of after
   *     the transaction timeout
   * @param maxCrashes times a request may be alone in flight when a worker process dies before it
   *     is answered {@code failed} / {@code crashed_worker} and dead-lettered instead of fetched
   *     again (requests in flight together when a worker dies are first fetched one at a time to
   *     find the one that killed it)
   */
  public record Worker(
      @Min(1) @DefaultValue("4") int consumers,
      @DefaultValue("") String credentialsKey,
      @DefaultValue("") String transactionIdPrefix,
      @Min(1) @DefaultValue("1") int maxCrashes) {

    @Override
    public String toString() {
      return "Worker[consumers="
          + consumers
          + ", credentialsKey="
          + (credentialsKey.isEmpty() ? "(none)" : "(set)")
          + ", transactionIdPrefix="
          + transactionIdPrefix
          + ", maxCrashes="
          + maxCrashes
          + "]";
    }
  }

  /**
   * @param connectTimeout time to open a connection (ADR 0008
   *     (docs/adr/0008-one-fetch-path-and-a-deduplicated-content-layer.md): 10 s)
   * @param totalTimeout time from sending a request to the last byte of its body (ADR 0008: 30 s)
   * @param maxRetries retries after 429/5xx (ADR 0008: 3)
   * @param retryBase first retry delay, doubled for each next one (1 s, 2 s, 4 s)
   * @param maxRetryWait longest Retry-After waited for within a fetch; longer ends the fetch and is
   *     reported as retry_after
   * @param maxBodyBytes cap on bytes read from the wire
   * @param maxDecompressedBytes cap on a gzip/deflate body once decompressed
   * @param maxRedirects redirects followed per request
   * @param userAgent User-Agent header
   * @param allowLoopback fetch loopback addresses (tests, the local demo)
   * @param allowPrivate fetch private addresses (10/8, 172.16/12, 192.168/16, fc00::/7, 100.64/10)
   */
  public record Http(
      @NotNull @DefaultValue("10s") Duration connectTimeout,
      @NotNull @DefaultValue("30s") Duration totalTimeout,
      @Min(0) @DefaultValue("3") int maxRetries,
      @NotNull @DefaultValue("1s") Duration retryBase,
      @NotNull @DefaultValue("30s") Duration maxRetryWait,
      @Min(1) @DefaultValue("10485760") long maxBodyBytes,
      @Min(1) @DefaultValue("20971520") long maxDecompressedBytes,
      @Min(0) @DefaultValue("5") int maxRedirects,
      @NotBlank @DefaultValue("Freshet/0.1 (+https://github.com/freshet/freshet)") String userAgent,
      @DefaultValue("false") boolean allowLoopback,
      @DefaultValue("false") boolean allowPrivate) {}

  /**
   * @param minDelay least time between the starts of two requests to one host
   * @param maxConcurrent requests to one host at a time
   * @param coolDownBase host-wide pause after a 429/503 without Retry-After, doubled per one in a
   *     row
   * @param coolDownMax cap on any host-wide pause
   * @param hostMinDelays per-host minimum delays replacing {@code minDelay} (e.g. a host that asks
   *     for one request every 5 s)
   */
  public record Politeness(
      @NotNull @DefaultValue("1s") Duration minDelay,
      @Min(1) @DefaultValue("2") int maxConcurrent,
      @NotNull @DefaultValue("30s") Duration coolDownBase,
      @NotNull @DefaultValue("15m") Duration coolDownMax,
      @DefaultValue Map<String, Duration> hostMinDelays) {}

  /**
   * Defaults of the per-source options (a source's config overrides them).
   *
   * @param itemLimit {@code item_limit}: items kept per fetch (0 = no limit)
   * @param windowDays {@code window_days}: older items dropped (0 = no window)
   * @param windowAheadDays {@code window_ahead_days}: later events dropped, recurrences expanded up
   *     to here (0 = no window)
   * @param emitAll {@code emit}: false = only new or changed items, true = every item read
   * @param bodyCapChars body characters kept per item; longer ones are cut and flagged truncated
   */
  public record Items(
      @Min(0) @DefaultValue("50") int itemLimit,
      @Min(0) @DefaultValue("30") int windowDays,
      @Min(0) @DefaultValue("60") int windowAheadDays,
      @DefaultValue("false") boolean emitAll,
      @Min(1) @DefaultValue("262144") int bodyCapChars) {}

  /**
   * Keyword rules, applied after structure (calendar events, schema.org events, feed event dates).
   *
   * @param eventWords an item mentioning one is an event
   * @param askWords ... an ask
   * @param giveWords ... a give
   */
  public record Signals(
      @NotNull
          @DefaultValue({
            "meetup",
            "webinar",
            "workshop",
            "conference",
            "concert",
            "festival",
            "hackathon",
            "rsvp",
            "join us",
            "save the date",
            "livestream"
          })
          List<String> eventWords,
      @NotNull
          @DefaultValue({
            "looking for",
            "wanted",
            "help needed",
            "request for",
            "call for",
            "seeking",
            "can anyone",
            "does anyone",
            "hiring"
          })
          List<String> askWords,
      @NotNull
          @DefaultValue({
            "giveaway",
            "giving away",
            "free to a good home",
            "for sale",
            "discount",
            "offer",
            "available now",
            "released",
            "release"
          })
          List<String> giveWords) {}

  /**
   * The work budget of one fetch's CPU-bound part: decoding and parsing its documents, expanding
   * recurrences, mapping items. A fetch past it ends {@code failed} with error kind {@code
   * budget_exceeded}; the worker and the other fetches go on.
   *
   * @param cpu CPU time the fetch's parses may use, all its pages together
   * @param allocatedBytes bytes they may allocate (garbage included): bounds what a document can
   *     make the worker build
   * @param wall longest wall time of one parse; past it the parse is interrupted and abandoned
   * @param parseThreads platform threads that run parses (at most this many at once); 0 = the
   *     number of processors, at least 2
   */
  public record Budget(
      @NotNull @DefaultValue("5s") Duration cpu,
      @Min(1048576) @DefaultValue("1073741824") long allocatedBytes,
      @NotNull @DefaultValue("20s") Duration wall,
      @Min(0) @DefaultValue("0") int parseThreads) {}

  /**
   * robots.txt (RFC 9309): which sources obey it and how each host's is kept. A source's option
   * {@code robots} ({@code obey} | {@code ignore}) overrides its connector's default.
   *
   * @param connectors connectors whose sources obey robots.txt by default (feeds, calendars and
   *     APIs are meant to be polled: html only); empty = none
   * @param cacheTtl how long a host's robots.txt (or its absence, a 4xx) is kept (RFC 9309: at most
   *     24 h)
   * @param unreachableTtl how long a robots.txt that could not be read (5xx, 429, no connection,
   *     timeout) counts as disallowing everything before it is asked again
   * @param maxBytes robots.txt bytes read; the rest is ignored (500 KiB, as Google; RFC 9309 asks
   *     for at least that)
   * @param maxHosts hosts (scheme, host, port) whose robots.txt is kept; past it the soonest to
   *     expire are dropped
   * @param maxCrawlDelay cap on the {@code Crawl-delay} taken into the host's politeness delay (it
   *     only ever raises {@code politeness.min-delay}); 0 = ignore Crawl-delay
   * @param productToken product token matched against {@code User-agent} lines; empty = the leading
   *     word of {@code http.user-agent}, lower case ({@code freshet})
   */
  public record Robots(
      @NotNull @DefaultValue("html") List<String> connectors,
      @NotNull @DefaultValue("24h") Duration cacheTtl,
      @NotNull @DefaultValue("1h") Duration unreachableTtl,
      @Min(1) @DefaultValue("512000") int maxBytes,
      @Min(1) @DefaultValue("10000") int maxHosts,
      @NotNull @DefaultValue("60s") Duration maxCrawlDelay,
      @DefaultValue("") String productToken) {}
}
