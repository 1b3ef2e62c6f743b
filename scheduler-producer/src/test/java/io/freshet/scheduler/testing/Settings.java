package io.freshet.scheduler.testing;

import io.freshet.scheduler.config.SchedulerProperties;
import java.time.Duration;

/**
 * {@link SchedulerProperties} for a test: the service's settings with a few changed, so that a new
 * setting does not touch every test that builds its own. Claiming is off by default (tests run
 * rounds themselves).
 */
public final class Settings {

  private boolean claimingEnabled;
  private int claimThreads;
  private Duration tick;
  private int batchSize;
  private Duration leaseDuration;
  private int maxInFlight;
  private Duration sendTimeout;
  private double budgetPerHour;
  private Duration budgetReplanInterval;
  private String defaultCadence;
  private Duration gaugeRefresh;
  private Duration censusRefresh;
  private SchedulerProperties.CadenceTime cadenceTime;
  private SchedulerProperties.Web web;

  private Settings(SchedulerProperties p) {
    claimingEnabled = false;
    claimThreads = 1;
    tick = p.tick();
    batchSize = p.batchSize();
    leaseDuration = p.leaseDuration();
    maxInFlight = p.maxInFlight();
    sendTimeout = Duration.ofSeconds(10);
    budgetPerHour = p.budgetPerHour();
    budgetReplanInterval = p.budgetReplanInterval();
    defaultCadence = p.defaultCadence();
    gaugeRefresh = p.gaugeRefresh();
    censusRefresh = p.censusRefresh();
    cadenceTime = p.cadenceTime();
    web = p.web();
  }

  /** {@code freshet.scheduler.web.*} as application.yml sets them. */
  public static final SchedulerProperties.Web WEB_DEFAULTS =
      new SchedulerProperties.Web(
          Duration.ofHours(24),
          Duration.ofHours(24),
          3,
          0.02,
          Duration.ofMinutes(2),
          0.1,
          Duration.ofMinutes(15),
          Duration.ofMinutes(15));

  /** Starts from {@code base} with claiming off, one thread and a 10 s send timeout. */
  public static Settings from(SchedulerProperties base) {
    return new Settings(base);
  }

  /** Starts from the documented defaults. */
  public static Settings defaults() {
    return new Settings(
        new SchedulerProperties(
            false,
            1,
            Duration.ofSeconds(1),
            500,
            Duration.ofMinutes(5),
            20_000,
            Duration.ofSeconds(30),
            0,
            Duration.ofMinutes(10),
            "{\"mode\":\"adaptive\"}",
            Duration.ofSeconds(15),
            Duration.ofMinutes(1),
            new SchedulerProperties.CadenceTime(1, "", ""),
            WEB_DEFAULTS));
  }

  public Settings claiming(int threads, Duration tick) {
    this.claimingEnabled = true;
    this.claimThreads = threads;
    this.tick = tick;
    return this;
  }

  public Settings batchSize(int batchSize) {
    this.batchSize = batchSize;
    return this;
  }

  public Settings lease(Duration leaseDuration) {
    this.leaseDuration = leaseDuration;
    return this;
  }

  public Settings maxInFlight(int maxInFlight) {
    this.maxInFlight = maxInFlight;
    return this;
  }

  public Settings sendTimeout(Duration sendTimeout) {
    this.sendTimeout = sendTimeout;
    return this;
  }

  /** The server's rules ({@code freshet.scheduler.web.*}). */
  public Settings web(SchedulerProperties.Web web) {
    this.web = web;
    return this;
  }

  public Settings budgetPerHour(double budgetPerHour) {
    this.budgetPerHour = budgetPerHour;
    return this;
  }

  /** The cadence model's clock: {@code scale} times real time, from {@code origin} on. */
  public Settings cadenceTime(double scale, java.time.Instant origin) {
    this.cadenceTime = new SchedulerProperties.CadenceTime(scale, origin.toString(), "");
    return this;
  }

  public SchedulerProperties build() {
    return new SchedulerProperties(
        claimingEnabled,
        claimThreads,
        tick,
        batchSize,
        leaseDuration,
        maxInFlight,
        sendTimeout,
        budgetPerHour,
        budgetReplanInterval,
        defaultCadence,
        gaugeRefresh,
        censusRefresh,
        cadenceTime,
        web);
  }
}
