package io.freshet.sink.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Every setting of the content-sink ({@code freshet.*}); defaults live here and only here.
 *
 * @param sink how content is stored
 * @param kafka topics and schema registry
 */
@Validated
@ConfigurationProperties("freshet")
public record SinkProperties(@Valid @DefaultValue Sink sink, @Valid @DefaultValue Kafka kafka) {

  /**
   * @param defaultRetention how long content is kept when its event carries no retention
   * @param infrastructureRetryInterval pause between retries of a batch while PostgreSQL (or the
   *     broker, for dead letters) is unavailable; the batch is retried until it succeeds
   */
  public record Sink(
      @NotNull @DefaultValue("90d") Duration defaultRetention,
      @NotNull @DefaultValue("2s") Duration infrastructureRetryInterval) {}

  /**
   * @param registryUrl Apicurio's native API of the schema registry
   * @param autoRegister whether schemas may be registered by this service (tests only)
   * @param partitions partitions of topics this service creates
   * @param replicationFactor replication factor of topics this service creates
   * @param createTopics whether missing topics and their DLQs are created at start-up
   */
  public record Kafka(
      @NotBlank @DefaultValue("http://localhost:8081/apis/registry/v2") String registryUrl,
      @DefaultValue("false") boolean autoRegister,
      @Min(1) @DefaultValue("12") int partitions,
      @Min(1) @DefaultValue("1") short replicationFactor,
      @DefaultValue("true") boolean createTopics) {}
}
