package io.freshet.stats.app;

import io.freshet.stats.state.StatsSettings;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every setting of the stats-aggregator ({@code freshet.stats.*}); {@code spring.kafka.*} adds the
 * broker address and client security, {@code freshet.kafka.*} (the service kit) the registry and
 * the topics' partitions and replication, which the changelog follows too.
 *
 * @param applicationId Kafka Streams application id: the consumer group, the prefix of the
 *     changelog topic and of the transactional ids; every instance of one deployment shares it
 * @param windowSize fetches in the rolling window (N)
 * @param countedHashes content hashes remembered per source (an item is counted once)
 * @param appliedOutcomes outcome identities remembered per source (a redelivered record is applied
 *     once)
 * @param rateWindow the change-rate estimator's forgetting time constant
 * @param priorInterval interval assumed before any evidence (the tracker's prior is 1/it, and the
 *     population prior starts broad around it)
 * @param rateEstimator which estimate {@code change_rate} carries: {@code posterior} (empirical
 *     Bayes times the age hazard, the lab's {@code adaptive_stream}) or {@code tracker} (the
 *     earlier point estimate)
 * @param rateItemMemory the posterior's forgetting time constant for items (feeds)
 * @param rateChangeMemory the posterior's forgetting time constant for changed / not changed
 *     (pages)
 * @param ratePriorMemory the population prior's forgetting time constant
 * @param ratePriorPseudoSources sources' worth of the broad prior a task's learned prior is shrunk
 *     with (a task with few sources leans on it)
 * @param stateDir RocksDB state directory of this instance
 * @param standbyReplicas warm copies of each store on other instances (faster fail-over)
 * @param streamThreads stream threads of this instance
 * @param commitInterval how often the exactly-once transaction commits (latency vs throughput); the
 *     Streams producer lingers as long (at most 30 s)
 * @param advertisedHost {@code host:port} other instances reach this one's HTTP API at, for routing
 *     interactive queries
 * @param queryTimeout how long a query forwarded to the owning instance may take
 * @param maxIdsPerQuery most ids one {@code GET /stats?ids=} may name
 */
@Validated
@ConfigurationProperties("freshet.stats")
public record StatsProperties(
    @NotBlank @DefaultValue("freshet-stats-aggregator") String applicationId,
    @Min(1) @Max(1000) @DefaultValue("20") int windowSize,
    @Min(1) @Max(100_000) @DefaultValue("512") int countedHashes,
    @Min(1) @Max(1000) @DefaultValue("32") int appliedOutcomes,
    @NotNull @DefaultValue("14d") Duration rateWindow,
    @NotNull @DefaultValue("24h") Duration priorInterval,
    @NotNull @DefaultValue("posterior") StatsSettings.Estimator rateEstimator,
    @NotNull @DefaultValue("60d") Duration rateItemMemory,
    @NotNull @DefaultValue("365d") Duration rateChangeMemory,
    @NotNull @DefaultValue("7d") Duration ratePriorMemory,
    @DecimalMin(value = "0", inclusive = false) @DecimalMax("1000000") @DefaultValue("1")
        double ratePriorPseudoSources,
    @NotBlank @DefaultValue("/tmp/freshet-stats") String stateDir,
    @Min(0) @Max(5) @DefaultValue("1") int standbyReplicas,
    @Min(1) @Max(64) @DefaultValue("1") int streamThreads,
    @NotNull @DefaultValue("5s") Duration commitInterval,
    @NotBlank
        @Pattern(regexp = "[^:\\s]+:\\d{1,5}", message = "must be host:port")
        @DefaultValue("localhost:8080")
        String advertisedHost,
    @NotNull @DefaultValue("5s") Duration queryTimeout,
    @Min(1) @Max(10_000) @DefaultValue("500") int maxIdsPerQuery) {

  /** The definitions' knobs. */
  public StatsSettings settings() {
    return new StatsSettings(
        windowSize,
        countedHashes,
        appliedOutcomes,
        rateWindow,
        priorInterval,
        new StatsSettings.RateModel(
            rateEstimator,
            rateItemMemory,
            rateChangeMemory,
            ratePriorMemory,
            ratePriorPseudoSources));
  }
}
