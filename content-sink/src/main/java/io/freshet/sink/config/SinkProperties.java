package io.freshet.sink.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every setting of the content-sink ({@code freshet.*}); defaults live here and only here.
 *
 * @param sink how content is stored
 * @param cleanup the job that deletes expired, unretained content
 * @param api the read and retention API
 */
@Validated
@ConfigurationProperties("freshet")
public record SinkProperties(
    @Valid @DefaultValue Sink sink,
    @Valid @DefaultValue Cleanup cleanup,
    @Valid @DefaultValue Api api) {

  /**
   * @param defaultRetention how long content is kept when its event carries no retention
   * @param listenerConcurrency consumers per listener in this instance, each with its own
   *     partitions and its own batches (more than the topic's partitions stay idle)
   * @param keepAliveGranularity the most a 304's keep-alive may round a version's expiry up by (and
   *     let its {@code last_seen_at} lag): a 304 rewrites a version only when its stored expiry is
   *     earlier than the TTL rule's or its {@code last_seen_at} lags by more than {@code g =
   *     min(this, retention / 100)}, and then sets the expiry {@code g} past the rule ({@code
   *     io.freshet.sink.ingest.KeepAlive}); 0 applies the rule exactly on every 304
   * @param activityFetchMinBytes the outcome (activity) listener's {@code fetch.min.bytes}: the
   *     broker answers once this much has gathered, so a poll holds hundreds of outcomes (read by
   *     the listener's annotation; bound here to be validated and documented)
   * @param activityFetchMaxWaitMs the outcome listener's {@code fetch.max.wait.ms}: the longest an
   *     outcome waits for company
   */
  public record Sink(
      @NotNull @DefaultValue("90d") Duration defaultRetention,
      @Min(1) @Max(64) @DefaultValue("4") int listenerConcurrency,
      @NotNull @DefaultValue("1h") Duration keepAliveGranularity,
      @Min(1) @Max(52_428_800) @DefaultValue("65536") int activityFetchMinBytes,
      @Min(0) @Max(30_000) @DefaultValue("500") int activityFetchMaxWaitMs) {}

  /**
   * @param enabled whether this instance runs the job on its schedule (on-demand runs always work;
   *     several instances may enable it, an advisory lock lets one run at a time)
   * @param interval pause between the end of one run and the start of the next
   * @param initialDelay pause between start-up and the first run
   * @param batchSize rows deleted per transaction: bounds how long a batch holds its locks
   * @param maxBatches batches per run at most; what is left waits for the next run
   * @param activityRetention how long activity-log rows are kept
   */
  public record Cleanup(
      @DefaultValue("true") boolean enabled,
      @NotNull @DefaultValue("1h") Duration interval,
      @NotNull @DefaultValue("1m") Duration initialDelay,
      @Min(1) @Max(100_000) @DefaultValue("1000") int batchSize,
      @Min(1) @DefaultValue("10000") int maxBatches,
      @NotNull @DefaultValue("90d") Duration activityRetention) {}

  /**
   * @param token deprecated: the single write token of earlier releases, accepted for this release
   *     as a bootstrap admin key (the service kit's {@code io.freshet.kit.security}); use {@code
   *     freshet.security.admin-key} and keys made on the scheduler
   * @param tokenForReads deprecated and ignored: every read needs a key now (content is private to
   *     its tenant)
   * @param defaultPageSize page size when a request names none
   * @param maxPageSize largest {@code limit} a request may ask for
   * @param maxIdsPerRequest most content ids in one retention request
   */
  public record Api(
      @DefaultValue("") String token,
      @DefaultValue("false") boolean tokenForReads,
      @Min(1) @DefaultValue("100") int defaultPageSize,
      @Min(1) @Max(10_000) @DefaultValue("1000") int maxPageSize,
      @Min(1) @Max(100_000) @DefaultValue("10000") int maxIdsPerRequest) {}
}
