package io.freshet.stack.demoweb;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * Every setting of the demo web, validated, with defaults ({@link #defaults()}); {@link
 * #fromEnvironment(Map)} reads each from a {@code DEMO_WEB_*} variable.
 *
 * @param bindAddress where it listens; every 127.x.y.z address reaches it when this is 0.0.0.0
 *     (requests from other than loopback are refused whatever this is)
 * @param port TCP port (0 = any free one)
 * @param sources how many demo sources (1–{@value #MAX_SOURCES}): 575 from feed traces + 921 pages
 *     (+ the complete-history traces' share) are distinct; beyond what the traces hold, the catalog
 *     repeats them as copies (a source of their own each, for load)
 * @param hosts how many loopback host addresses the sources are spread over (≤ 64,516)
 * @param window how many of the latest items a feed, calendar or API lists
 * @param scale trace seconds per wall second (1440 = a trace day per wall minute)
 * @param traceStart the trace instant replayed at {@code origin}
 * @param origin the wall instant at which replay is at {@code traceStart}; null = the start time
 * @param misbehaving whether some hosts misbehave (429, 5xx, slow, malformed, redirect loop)
 * @param slowDelay how long a slow host takes to answer
 * @param rateLimitGap a rate-limited host answers 429 to a request sooner than this after its
 *     previous 200
 * @param historyShare the share of the sources (0–0.5) taken from the two complete-history traces:
 *     bursty feeds (every item's first-seen time; several often at once) as RSS, Atom and JSON
 *     Feed, and software releases as pages (a new version changes the page). {@link #defaults()}
 *     has 0: the two original traces only, on which the tests' and benchmarks' rounds are
 *     calibrated; the demo web program ({@code ./freshet up}) takes {@value #LIVE_HISTORY_SHARE}
 *     unless {@code DEMO_WEB_HISTORY_SHARE} says otherwise
 */
public record DemoWebSettings(
    String bindAddress,
    int port,
    int sources,
    int hosts,
    int window,
    double scale,
    Instant traceStart,
    Instant origin,
    boolean misbehaving,
    Duration slowDelay,
    Duration rateLimitGap,
    double historyShare) {

  /** The most demo sources a catalog holds (copies of the traces' beyond 1,496). */
  public static final int MAX_SOURCES = 100_000;

  /** The share of complete-history sources in the demo web the local stack runs. */
  public static final double LIVE_HISTORY_SHARE = 0.15;

  public DemoWebSettings {
    Objects.requireNonNull(bindAddress, "bindAddress");
    Objects.requireNonNull(traceStart, "traceStart");
    Objects.requireNonNull(slowDelay, "slowDelay");
    Objects.requireNonNull(rateLimitGap, "rateLimitGap");
    require(port >= 0 && port <= 65_535, "port must be 0-65535, got " + port);
    require(
        sources >= 1 && sources <= MAX_SOURCES,
        "sources must be 1-" + MAX_SOURCES + ", got " + sources);
    require(hosts >= 1 && hosts <= 254 * 254, "hosts must be 1-64516, got " + hosts);
    require(window >= 1 && window <= 1_000, "window must be 1-1000, got " + window);
    require(scale > 0 && scale <= 1e7, "scale must be in (0, 1e7], got " + scale);
    require(!slowDelay.isNegative(), "slowDelay must not be negative");
    require(!rateLimitGap.isNegative(), "rateLimitGap must not be negative");
    require(
        historyShare >= 0 && historyShare <= 0.5,
        "historyShare must be in [0, 0.5], got " + historyShare);
  }

  /** Settings without complete-history sources (the two original traces only). */
  public DemoWebSettings(
      String bindAddress,
      int port,
      int sources,
      int hosts,
      int window,
      double scale,
      Instant traceStart,
      Instant origin,
      boolean misbehaving,
      Duration slowDelay,
      Duration rateLimitGap) {
    this(
        bindAddress,
        port,
        sources,
        hosts,
        window,
        scale,
        traceStart,
        origin,
        misbehaving,
        slowDelay,
        rateLimitGap,
        0);
  }

  public static DemoWebSettings defaults() {
    return new DemoWebSettings(
        "0.0.0.0",
        8090,
        1_000,
        200,
        20,
        1_440,
        Instant.parse("2025-02-18T00:00:00Z"),
        null,
        true,
        Duration.ofSeconds(2),
        Duration.ofSeconds(2));
  }

  /** Defaults overridden by {@code DEMO_WEB_<SETTING>} variables (e.g. DEMO_WEB_SCALE). */
  public static DemoWebSettings fromEnvironment(Map<String, String> env) {
    DemoWebSettings d = defaults();
    try {
      return new DemoWebSettings(
          env.getOrDefault("DEMO_WEB_BIND_ADDRESS", d.bindAddress()),
          Integer.parseInt(env.getOrDefault("DEMO_WEB_PORT", "" + d.port())),
          Integer.parseInt(env.getOrDefault("DEMO_WEB_SOURCES", "" + d.sources())),
          Integer.parseInt(env.getOrDefault("DEMO_WEB_HOSTS", "" + d.hosts())),
          Integer.parseInt(env.getOrDefault("DEMO_WEB_WINDOW", "" + d.window())),
          Double.parseDouble(env.getOrDefault("DEMO_WEB_SCALE", "" + d.scale())),
          Instant.parse(env.getOrDefault("DEMO_WEB_TRACE_START", d.traceStart().toString())),
          env.containsKey("DEMO_WEB_ORIGIN") ? Instant.parse(env.get("DEMO_WEB_ORIGIN")) : null,
          Boolean.parseBoolean(env.getOrDefault("DEMO_WEB_MISBEHAVING", "" + d.misbehaving())),
          Duration.parse(env.getOrDefault("DEMO_WEB_SLOW_DELAY", d.slowDelay().toString())),
          Duration.parse(env.getOrDefault("DEMO_WEB_RATE_LIMIT_GAP", d.rateLimitGap().toString())),
          Double.parseDouble(env.getOrDefault("DEMO_WEB_HISTORY_SHARE", "" + LIVE_HISTORY_SHARE)));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("demo web settings: " + e.getMessage(), e);
    }
  }

  /** A copy with another value of one setting; for tests and the launcher. */
  public DemoWebSettings withSources(int n) {
    return new DemoWebSettings(
        bindAddress,
        port,
        n,
        hosts,
        window,
        scale,
        traceStart,
        origin,
        misbehaving,
        slowDelay,
        rateLimitGap,
        historyShare);
  }

  public DemoWebSettings withPort(int p) {
    return new DemoWebSettings(
        bindAddress,
        p,
        sources,
        hosts,
        window,
        scale,
        traceStart,
        origin,
        misbehaving,
        slowDelay,
        rateLimitGap,
        historyShare);
  }

  public DemoWebSettings withScale(double s) {
    return new DemoWebSettings(
        bindAddress,
        port,
        sources,
        hosts,
        window,
        s,
        traceStart,
        origin,
        misbehaving,
        slowDelay,
        rateLimitGap,
        historyShare);
  }

  public DemoWebSettings withMisbehaving(boolean m) {
    return new DemoWebSettings(
        bindAddress,
        port,
        sources,
        hosts,
        window,
        scale,
        traceStart,
        origin,
        m,
        slowDelay,
        rateLimitGap,
        historyShare);
  }

  public DemoWebSettings withOrigin(Instant o) {
    return new DemoWebSettings(
        bindAddress,
        port,
        sources,
        hosts,
        window,
        scale,
        traceStart,
        o,
        misbehaving,
        slowDelay,
        rateLimitGap,
        historyShare);
  }

  public DemoWebSettings withHistoryShare(double share) {
    return new DemoWebSettings(
        bindAddress,
        port,
        sources,
        hosts,
        window,
        scale,
        traceStart,
        origin,
        misbehaving,
        slowDelay,
        rateLimitGap,
        share);
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException(message);
    }
  }
}
