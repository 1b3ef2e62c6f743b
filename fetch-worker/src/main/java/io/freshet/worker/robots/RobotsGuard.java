package io.freshet.worker.robots;

import crawlercommons.robots.SimpleRobotRules;
import crawlercommons.robots.SimpleRobotRulesParser;
import io.freshet.schemas.avro.Connector;
import io.freshet.worker.http.FetchFailure;
import io.freshet.worker.http.HttpFetcher;
import io.freshet.worker.http.HttpResult;
import io.freshet.worker.http.Politeness;
import io.freshet.worker.http.SafeUrls;
import io.freshet.worker.robots.RobotsDecision.Verdict;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Obeys robots.txt (RFC 9309) before a source is fetched. Each origin's (scheme, host, port)
 * robots.txt is requested once per cache period through the worker's one {@link HttpFetcher} — so
 * the SSRF guard, timeouts, redirects (at most the fetcher's {@code max-redirects}, 5 by default)
 * and the host's politeness apply, and the robots request takes a turn at the host like any other —
 * and parsed with crawler-commons' {@link SimpleRobotRulesParser} for the configured product token:
 *
 * <ul>
 *   <li>2xx: its rules (longest match wins, an allow over a disallow of the same length, {@code *}
 *       and {@code $}); only the first {@code max-bytes} count; kept {@code cache-ttl};
 *   <li>4xx (but 429), a redirect without Location, more redirects than allowed: no robots.txt,
 *       everything allowed; kept {@code cache-ttl};
 *   <li>429, 5xx (after the fetcher's retries), no connection, a timeout, a corrupt body:
 *       unreachable, so everything disallowed; kept {@code unreachable-ttl}, then asked again;
 *   <li>what would stop the source's own request as well (DNS, a refused address, the host's
 *       cool-down, a turn after the request's lease) ends the fetch with that failure and is not
 *       kept.
 * </ul>
 *
 * Concurrent checks of one origin wait for the one robots request. A {@code Crawl-delay} raises the
 * host's politeness delay ({@link Politeness#crawlDelay}), capped at {@code max-crawl-delay}. At
 * most {@code max-hosts} origins are kept; past it the soonest to expire are dropped.
 *
 * <p>Which sources obey: those of the connectors in {@code connectors} ({@code html} by default),
 * unless the source's option {@code robots} says {@code ignore} (an owner waiving it for their own
 * site); {@code obey} makes any source obey. Thread-safe.
 */
public final class RobotsGuard {

  /** The source option: {@code obey} or {@code ignore}; absent = the connector's default. */
  public static final String OPTION = "robots";

  /** A source's choice. */
  public enum Choice {
    DEFAULT,
    OBEY,
    IGNORE
  }

  /** What a robots.txt request came to; the {@code outcome} tag of the robots fetch counter. */
  public enum Outcome {
    /** 2xx, parsed. */
    PARSED,
    /** 4xx or too many redirects: no robots.txt, all allowed. */
    UNAVAILABLE,
    /** 5xx, 429, no connection, timeout: all disallowed for a while. */
    UNREACHABLE,
    /** A failure that ends the fetch itself (DNS, refused address, cool-down, lease): not kept. */
    FAILED;

    public String code() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final RobotsSettings settings;
  private final HttpFetcher http;
  private final Politeness politeness;
  private final Clock clock;
  private final List<String> agents;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();
  private final ReentrantLock trimming = new ReentrantLock();
  private final Map<Verdict, AtomicLong> decisions = new EnumMap<>(Verdict.class);
  private final Map<Outcome, AtomicLong> fetches = new EnumMap<>(Outcome.class);

  public RobotsGuard(
      RobotsSettings settings, HttpFetcher http, Politeness politeness, Clock clock) {
    this.settings = settings;
    this.http = http;
    this.politeness = politeness;
    this.clock = clock;
    this.agents = List.of(settings.productToken());
    for (Verdict v : Verdict.values()) {
      decisions.put(v, new AtomicLong());
    }
    for (Outcome o : Outcome.values()) {
      fetches.put(o, new AtomicLong());
    }
  }

  /**
   * The source's {@code robots} option.
   *
   * @throws IllegalArgumentException when it is neither {@code obey} nor {@code ignore}
   */
  public static Choice choice(Map<String, String> config) {
    String value = config.get(OPTION);
    if (value == null || value.isBlank()) {
      return Choice.DEFAULT;
    }
    return switch (value.trim()) {
      case "obey" -> Choice.OBEY;
      case "ignore" -> Choice.IGNORE;
      default ->
          throw new IllegalArgumentException(
              "config.robots must be 'obey' or 'ignore', was '" + value + "'");
    };
  }

  /**
   * Whether {@code url}, a source of {@code connector} with options {@code config}, may be
   * requested. May request the origin's robots.txt (not after {@code notAfter}: see {@link
   * HttpFetcher#get(URI, Map, HttpFetcher.Conditional, Instant)}).
   *
   * @throws FetchFailure what would stop the source's own request too (bad URL, DNS, refused
   *     address, host cooling down, expired): the fetch ends with it
   * @throws IllegalArgumentException for an invalid {@code robots} option
   * @throws InterruptedException when the worker stops meanwhile
   */
  public RobotsDecision check(
      Connector connector, Map<String, String> config, URI url, Instant notAfter)
      throws FetchFailure, InterruptedException {
    Choice choice = choice(config);
    if (choice == Choice.IGNORE) {
      return counted(
          new RobotsDecision(
              Verdict.WAIVED,
              null,
              "robots.txt not consulted: the source's option \"robots\": \"ignore\" waives it"));
    }
    if (choice == Choice.DEFAULT && !settings.connectors().contains(connector)) {
      return counted(
          new RobotsDecision(
              Verdict.NOT_APPLIED,
              null,
              "robots.txt not consulted: connector "
                  + connector
                  + " does not obey it by default (freshet.robots.connectors); the source's option"
                  + " \"robots\": \"obey\" would make it"));
    }
    URI robots = robotsUri(url);
    Rules rules = rulesFor(origin(url), robots, notAfter);
    if (rules.crawlDelay().isPositive()) {
      politeness.crawlDelay(url.getHost(), rules.crawlDelay());
    }
    return counted(decide(rules, url));
  }

  private RobotsDecision decide(Rules rules, URI url) {
    String where = "robots.txt at " + rules.robotsUrl();
    String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
    return switch (rules.outcome()) {
      case UNAVAILABLE ->
          new RobotsDecision(
              Verdict.ALLOWED, rules.robotsUrl(), where + " absent (" + rules.detail() + ")");
      case UNREACHABLE ->
          new RobotsDecision(
              Verdict.UNREACHABLE_DISALLOWED,
              rules.robotsUrl(),
              where
                  + " unreachable ("
                  + rules.detail()
                  + ") at "
                  + rules.fetchedAt()
                  + ": everything disallowed until it is asked again after "
                  + rules.expires()
                  + " (RFC 9309)");
      case PARSED, FAILED -> { // FAILED is never kept
        String target = url.toString();
        if (rules.rules().isAllowed(target)) {
          yield new RobotsDecision(
              Verdict.ALLOWED,
              rules.robotsUrl(),
              where + " allows " + path + " for user-agent '" + settings.productToken() + "'");
        }
        yield new RobotsDecision(
            Verdict.DISALLOWED,
            rules.robotsUrl(),
            where
                + " disallows "
                + path
                + " for user-agent '"
                + settings.productToken()
                + "' ("
                + decidingRule(rules.rules(), target)
                + ")");
      }
    };
  }

  /** The rule that disallows {@code url}: the first disallow, in precedence order, to match it. */
  static String decidingRule(SimpleRobotRules rules, String url) {
    if (rules.isAllowNone()) {
      return "everything disallowed";
    }
    // Rules are kept in precedence order (longest first, allow before disallow): the URL is
    // disallowed, so no allow rule before the first matching disallow rule matches it.
    for (SimpleRobotRules.RobotRule rule : rules.getRobotRules()) {
      if (rule.isAllow()) {
        continue;
      }
      var alone = new SimpleRobotRules();
      alone.addRule(rule.getPrefix(), false);
      if (!alone.isAllowed(url)) {
        return "rule 'Disallow: " + rule.getPrefix() + "'";
      }
    }
    return "disallowed";
  }

  private Rules rulesFor(String origin, URI robots, Instant notAfter)
      throws FetchFailure, InterruptedException {
    Slot slot = slots.computeIfAbsent(origin, o -> new Slot());
    Rules kept = slot.rules;
    if (kept != null && kept.expires().isAfter(clock.instant())) {
      return kept;
    }
    slot.lock.lockInterruptibly();
    try {
      kept = slot.rules;
      if (kept != null && kept.expires().isAfter(clock.instant())) {
        return kept; // another check of this origin fetched it meanwhile
      }
      Rules fresh = fetch(robots, notAfter);
      slot.rules = fresh;
      return fresh;
    } finally {
      slot.lock.unlock();
      if (slot.rules == null) {
        slots.remove(origin, slot); // nothing kept (the request failed): no entry either
      }
      trim();
    }
  }

  private Rules fetch(URI robots, Instant notAfter) throws FetchFailure, InterruptedException {
    String where = SafeUrls.describe(robots);
    HttpResult result;
    try {
      result = http.getPrefix(robots, notAfter, settings.maxBytes());
    } catch (FetchFailure f) {
      return switch (f.kind()) {
        case TOO_MANY_REDIRECTS -> kept(Outcome.UNAVAILABLE, where, f.getMessage(), null);
        case CONNECT, TIMEOUT, TOO_LARGE, PARSE ->
            kept(Outcome.UNREACHABLE, where, f.getMessage(), null);
        default -> {
          fetches.get(Outcome.FAILED).incrementAndGet();
          throw f;
        }
      };
    }
    int status = result.status();
    if (result.successful()) {
      // crawler-commons would turn a Crawl-delay above its maximum into disallow-all; the worker
      // caps the delay instead, so the parser gets no maximum.
      var parser = new SimpleRobotRulesParser(Long.MAX_VALUE, 5);
      SimpleRobotRules rules =
          parser.parseContent(robots.toString(), result.body(), result.contentType(), this.agents);
      return kept(Outcome.PARSED, where, "HTTP " + status, rules);
    }
    if (status == 429 || status >= 500) {
      return kept(Outcome.UNREACHABLE, where, "HTTP " + status, null);
    }
    return kept(Outcome.UNAVAILABLE, where, "HTTP " + status, null);
  }

  private Rules kept(Outcome outcome, String where, String detail, SimpleRobotRules rules) {
    fetches.get(outcome).incrementAndGet();
    Instant now = clock.instant();
    Duration ttl = outcome == Outcome.UNREACHABLE ? settings.unreachableTtl() : settings.cacheTtl();
    Duration delay = Duration.ZERO;
    if (rules != null && rules.getCrawlDelay() > 0) {
      delay = Duration.ofMillis(rules.getCrawlDelay());
      if (delay.compareTo(settings.maxCrawlDelay()) > 0) {
        delay = settings.maxCrawlDelay();
      }
    }
    return new Rules(outcome, where, detail, rules, now, now.plus(ttl), delay);
  }

  private void trim() {
    if (slots.size() <= settings.maxHosts() || !trimming.tryLock()) {
      return;
    }
    try {
      Instant now = clock.instant();
      slots.entrySet().removeIf(e -> e.getValue().droppable() && e.getValue().expiredAt(now));
      int over = slots.size() - settings.maxHosts();
      if (over <= 0) {
        return;
      }
      // the soonest to expire go first, a tenth more than needed so that not every new host sorts
      slots.entrySet().stream()
          .filter(e -> e.getValue().droppable())
          .sorted(Comparator.comparing(e -> e.getValue().expires()))
          .limit(over + settings.maxHosts() / 10)
          .map(Map.Entry::getKey)
          .toList()
          .forEach(slots::remove);
    } finally {
      trimming.unlock();
    }
  }

  /** {@code https://example.org:443}: robots.txt applies per scheme, host and port. */
  static String origin(URI url) {
    String scheme = url.getScheme().toLowerCase(Locale.ROOT);
    int port = url.getPort() >= 0 ? url.getPort() : scheme.equals("https") ? 443 : 80;
    return scheme + "://" + url.getHost().toLowerCase(Locale.ROOT) + ":" + port;
  }

  private static URI robotsUri(URI url) throws FetchFailure {
    String scheme = url.getScheme();
    if (scheme == null
        || url.getHost() == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
      throw new FetchFailure(
          io.freshet.worker.http.ErrorKind.BAD_URL,
          "not an absolute http(s) URL: " + SafeUrls.describe(url));
    }
    try {
      return new URI(
          scheme.toLowerCase(Locale.ROOT),
          null,
          url.getHost(),
          url.getPort(),
          "/robots.txt",
          null,
          null);
    } catch (URISyntaxException e) {
      throw new FetchFailure(
          io.freshet.worker.http.ErrorKind.BAD_URL,
          "no robots.txt URL for " + SafeUrls.describe(url));
    }
  }

  private RobotsDecision counted(RobotsDecision decision) {
    decisions.get(decision.verdict()).incrementAndGet();
    return decision;
  }

  /** Decisions made since this instance began, by verdict (a metric). */
  public long decisionCount(Verdict verdict) {
    return decisions.get(verdict).get();
  }

  /** robots.txt requests since this instance began, by outcome (a metric). */
  public long fetchCount(Outcome outcome) {
    return fetches.get(outcome).get();
  }

  /** Origins whose robots.txt is kept now (a metric). */
  public int cachedHosts() {
    return slots.size();
  }

  /** What one origin's robots.txt came to, until {@code expires}. */
  private record Rules(
      Outcome outcome,
      String robotsUrl,
      String detail,
      SimpleRobotRules rules,
      Instant fetchedAt,
      Instant expires,
      Duration crawlDelay) {}

  private static final class Slot {
    final ReentrantLock lock = new ReentrantLock();
    volatile Rules rules;

    boolean droppable() {
      return !lock.isLocked();
    }

    boolean expiredAt(Instant now) {
      Rules r = rules;
      return r == null || !r.expires().isAfter(now);
    }

    Instant expires() {
      Rules r = rules;
      return r == null ? Instant.MIN : r.expires();
    }
  }
}
