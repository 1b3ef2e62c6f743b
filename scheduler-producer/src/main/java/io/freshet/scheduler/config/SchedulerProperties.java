package io.freshet.scheduler.config;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the scheduler claims and schedules ({@code freshet.scheduler.*}; every key is listed with its
 * default in {@code application.yml} and can be set from the environment, e.g. {@code
 * FRESHET_SCHEDULER_BATCH_SIZE}).
 *
 * @param claimingEnabled whether this instance runs the claim loop (API-only instances set false)
 * @param claimThreads concurrent claim loops in this instance; SKIP LOCKED keeps them (and other
 *     instances) off each other's rows. Two use both the database's and the JVM's share of a 2-core
 *     machine (benchmark: ~17k claims/s with one, ~22-26k with two, 1M sources)
 * @param tick pause between claim rounds when the last round found nothing more to claim
 * @param batchSize sources claimed per claim transaction
 * @param leaseDuration how long a claim holds a source; its FetchRequested's {@code not_after}. A
 *     worker drops a request it picks up later; the source is claimed again with a new epoch.
 * @param maxInFlight cap on leased sources across all instances and claim threads, so a lagging
 *     worker group is not flooded; rounds reserve room under it before they claim ({@code
 *     InFlightCap}), so it holds exactly; {@code Integer.MAX_VALUE} is no cap (nothing counted)
 * @param sendTimeout how long a claim waits for the broker to acknowledge its requests before it
 *     rolls back
 * @param budgetPerHour global fetch budget (fetches per hour) handed to the cadence module; 0 = no
 *     budget
 * @param budgetReplanInterval how often the budget plan is recomputed from all sources' demands
 * @param defaultCadence {@code config_json.cadence} for sources that have none (JSON)
 * @param gaugeRefresh how often the due-backlog, oldest-overdue and in-flight gauges are re-read
 * @param censusRefresh how often the census gauges (sources by state, failing sources and hosts,
 *     current intervals) are re-counted: a scan of the sources table, so slower than {@code
 *     gauge-refresh}
 * @param cadenceTime the clock the cadence model runs on (real time unless set; for replays such as
 *     the local demo only)
 */
@Validated
@ConfigurationProperties("freshet.scheduler")
public record SchedulerProperties(
    @DefaultValue("true") boolean claimingEnabled,
    @Min(1) @DefaultValue("2") int claimThreads,
    @NotNull @DefaultValue("1s") Duration tick,
    @Min(1) @DefaultValue("500") int batchSize,
    @NotNull @DefaultValue("5m") Duration leaseDuration,
    @Min(1) @DefaultValue("20000") int maxInFlight,
    @NotNull @DefaultValue("30s") Duration sendTimeout,
    @DecimalMin("0") @DefaultValue("0") double budgetPerHour,
    @NotNull @DefaultValue("10m") Duration budgetReplanInterval,
    @NotBlank @DefaultValue("{\"mode\":\"adaptive\"}") String defaultCadence,
    @NotNull @DefaultValue("15s") Duration gaugeRefresh,
    @NotNull @DefaultValue("1m") Duration censusRefresh,
    @NotNull @DefaultValue CadenceTime cadenceTime,
    @NotNull @DefaultValue Web web) {

  /**
   * The server's rules on top of the cadence ({@code freshet.scheduler.web.*}; {@code ServerRules}
   * and docs/design.md, "The server's rules").
   *
   * @param maxHint the longest a server hint (max-age, ttl, update period, skipped hours, {@code
   *     Retry-After}, a host's cool-down) may hold a source back
   * @param ceiling the wait after a robots.txt refusal and between tries of a source that keeps
   *     answering 404
   * @param notFoundMisses 404s in a row after which a source waits {@code ceiling}
   * @param intervalJitter share of a success's interval added as per-source jitter
   * @param intervalJitterMax the most jitter added to a success's due time
   * @param backoffJitter share of a failure's or deferral's wait added as per-source jitter
   * @param backoffJitterMax the most jitter added to a failure's or deferral's due time
   * @param importSpread the first fetches of a bulk import are spread over this span instead of
   *     falling due at one instant (0 = all due at once)
   */
  public record Web(
      @NotNull @DefaultValue("24h") Duration maxHint,
      @NotNull @DefaultValue("24h") Duration ceiling,
      @Min(1) @DefaultValue("3") int notFoundMisses,
      @DecimalMin("0") @DecimalMax("0.5") @DefaultValue("0.02") double intervalJitter,
      @NotNull @DefaultValue("2m") Duration intervalJitterMax,
      @DecimalMin("0") @DecimalMax("0.5") @DefaultValue("0.1") double backoffJitter,
      @NotNull @DefaultValue("15m") Duration backoffJitterMax,
      @NotNull @DefaultValue("15m") Duration importSpread) {

    /** The rules the outcome handling applies. */
    public io.freshet.scheduler.schedule.ServerRules rules() {
      return new io.freshet.scheduler.schedule.ServerRules(
          maxHint,
          ceiling,
          notFoundMisses,
          intervalJitter,
          intervalJitterMax,
          backoffJitter,
          backoffJitterMax);
    }
  }

  /**
   * The cadence model's clock against the wall clock ({@code freshet.scheduler.cadence-time.*}):
   * model = model-origin + (wall − wall-origin) × scale. Successful fetches are scheduled in model
   * time; failure back-off, {@code Retry-After} and leases stay in wall time. Never set it in
   * production: it exists so that a replay at a faster pace (the local demo's web runs a trace day
   * a wall minute) is fetched at the same pace.
   *
   * @param scale model seconds per wall second; 1 = real time
   * @param wallOrigin ISO-8601 instant; empty = when this instance started
   * @param modelOrigin ISO-8601 instant, the model time at {@code wallOrigin}; empty = the same
   *     instant (the demo sets the trace instant its web replays at its origin, so rhythms by time
   *     of day fall on the trace's days)
   */
  public record CadenceTime(
      @DecimalMin(value = "0", inclusive = false) @DefaultValue("1") double scale,
      @DefaultValue("") String wallOrigin,
      @DefaultValue("") String modelOrigin) {}
}
