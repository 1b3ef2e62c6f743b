package io.freshet.worker.robots;

import io.freshet.schemas.avro.Connector;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * How the worker obeys robots.txt (RFC 9309). Built from {@code WorkerProperties.Robots}; every
 * default is there.
 *
 * @param connectors connectors whose sources obey robots.txt unless a source says otherwise
 *     (default: {@code html} only — feeds, calendars and APIs are meant to be polled)
 * @param cacheTtl how long a host's robots.txt (or its absence) is kept before it is asked again
 * @param unreachableTtl how long an unreachable robots.txt (5xx, 429, no connection, timeout) is
 *     taken as disallowing everything before it is asked again
 * @param maxBytes robots.txt bytes read; the rest is ignored (RFC 9309 asks for at least 500 KiB)
 * @param maxHosts hosts whose robots.txt is kept; past it the soonest to expire are dropped
 * @param maxCrawlDelay cap on a {@code Crawl-delay} taken into the host's politeness delay
 * @param productToken the user-agent product token matched against {@code User-agent} lines, lower
 *     case (letters, {@code _} and {@code -})
 */
public record RobotsSettings(
    Set<Connector> connectors,
    Duration cacheTtl,
    Duration unreachableTtl,
    int maxBytes,
    int maxHosts,
    Duration maxCrawlDelay,
    String productToken) {

  public RobotsSettings {
    connectors = connectors.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(connectors));
    Objects.requireNonNull(cacheTtl, "cacheTtl");
    Objects.requireNonNull(unreachableTtl, "unreachableTtl");
    Objects.requireNonNull(maxCrawlDelay, "maxCrawlDelay");
    if (maxBytes < 1 || maxHosts < 1) {
      throw new IllegalArgumentException("robots maxBytes and maxHosts must be >= 1");
    }
    if (cacheTtl.isNegative() || unreachableTtl.isNegative() || maxCrawlDelay.isNegative()) {
      throw new IllegalArgumentException("robots durations must not be negative");
    }
    if (productToken == null || !productToken.matches("[a-z_-]+")) {
      throw new IllegalArgumentException(
          "robots product token must be lower-case letters, '_' and '-' (RFC 9309), was '"
              + productToken
              + "'");
    }
  }

  /** The defaults, for the given product token. */
  public static RobotsSettings defaults(String productToken) {
    return new RobotsSettings(
        Set.of(Connector.html),
        Duration.ofHours(24),
        Duration.ofHours(1),
        512_000,
        10_000,
        Duration.ofSeconds(60),
        productToken);
  }

  /**
   * Connectors by name ({@code html}, {@code feed}...).
   *
   * @throws IllegalArgumentException naming an unknown one
   */
  public static Set<Connector> connectors(List<String> names) {
    Set<Connector> out = EnumSet.noneOf(Connector.class);
    for (String name : names) {
      String n = name.trim();
      if (n.isEmpty()) {
        continue;
      }
      Connector found = null;
      for (Connector c : Connector.values()) {
        if (c != Connector.unknown && c.name().equals(n)) {
          found = c;
        }
      }
      if (found == null) {
        throw new IllegalArgumentException(
            "freshet.robots.connectors: unknown connector '"
                + n
                + "'; allowed: feed, ical, json, html");
      }
      out.add(found);
    }
    return out;
  }

  /**
   * The product token of a User-Agent header: its leading run of letters, {@code _} and {@code -},
   * lower-cased ({@code Freshet/0.1 (+https://...)} → {@code freshet}).
   *
   * @throws IllegalArgumentException when the header does not start with one
   */
  public static String productTokenOf(String userAgent) {
    int end = 0;
    while (end < userAgent.length()) {
      char c = userAgent.charAt(end);
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '-')) {
        break;
      }
      end++;
    }
    if (end == 0) {
      throw new IllegalArgumentException(
          "the User-Agent '"
              + userAgent
              + "' does not start with a product token; set freshet.robots.product-token");
    }
    return userAgent.substring(0, end).toLowerCase(Locale.ROOT);
  }
}
