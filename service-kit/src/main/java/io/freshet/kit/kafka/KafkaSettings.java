package io.freshet.kit.kafka;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Topics, schema registry and failure handling, the same for every service ({@code
 * freshet.kafka.*}; client settings stay in {@code spring.kafka.*}).
 *
 * @param registryUrl Apicurio's native API of the schema registry
 * @param autoRegister whether producers may register schemas (tests and the local run only; in
 *     production run the schema registrar first)
 * @param partitions partitions of every Freshet topic (and each dead-letter topic)
 * @param replicationFactor replication factor of every Freshet topic
 * @param minInsyncReplicas {@code min.insync.replicas} set on every Freshet topic; 0 leaves it to
 *     the brokers' default
 * @param createTopics whether this service runs the topic provisioner at start-up (creating missing
 *     topics, checking existing ones); off where a deployment step runs it, as the local stack does
 * @param outageRetry how a record is retried while a part it needs is unavailable
 * @param deadLetterTimeout how long a dead letter's send may wait for the broker
 * @param tenantContentTopics tenants whose content is also written to a topic of their own, {@code
 *     freshet.content.fetched.v1.<tenant>} (by the fetch-worker, in the same transaction as the
 *     shared topic), so a tenant's consumers can be allowed on their topic alone (Kafka ACLs:
 *     docs/operations.md); empty by default. Every service and the provisioner must be given the
 *     same list
 */
@Validated
@ConfigurationProperties("freshet.kafka")
public record KafkaSettings(
    @NotBlank @DefaultValue("http://localhost:8081/apis/registry/v2") String registryUrl,
    @DefaultValue("false") boolean autoRegister,
    @Min(1) @DefaultValue("12") int partitions,
    @Min(1) @DefaultValue("1") short replicationFactor,
    @Min(0) @DefaultValue("0") int minInsyncReplicas,
    @DefaultValue("true") boolean createTopics,
    @Valid @DefaultValue OutageRetry outageRetry,
    @NotNull @DefaultValue("30s") Duration deadLetterTimeout,
    @NotNull @DefaultValue List<String> tenantContentTopics) {

  /**
   * Capped exponential backoff, forever: the first retry after {@code initial}, each next one twice
   * as late, never more than {@code max} apart.
   *
   * @param initial the first pause
   * @param max the longest pause
   */
  public record OutageRetry(
      @NotNull @DefaultValue("1s") Duration initial, @NotNull @DefaultValue("30s") Duration max) {}
}
