package io.freshet.scheduler.config;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Topics and schema registry ({@code freshet.topics.*}, {@code freshet.registry.*}).
 *
 * @param registryUrl Apicurio's native API of the schema registry
 * @param autoRegister whether producers may register schemas (false in production: run the
 *     SchemaRegistrar first)
 * @param partitions partitions for topics this service creates
 * @param replicationFactor replication factor for topics this service creates
 * @param createTopics whether to create missing topics at start-up
 * @param minInsyncReplicas {@code min.insync.replicas} set on topics this service creates; 0 leaves
 *     it to the brokers' default
 */
@Validated
@ConfigurationProperties("freshet.kafka")
public record KafkaTopicsProperties(
    @NotBlank @DefaultValue("http://localhost:8081/apis/registry/v2") String registryUrl,
    @DefaultValue("false") boolean autoRegister,
    @Min(1) @DefaultValue("12") int partitions,
    @Min(1) @DefaultValue("1") short replicationFactor,
    @DefaultValue("true") boolean createTopics,
    @Min(0) @DefaultValue("0") int minInsyncReplicas) {}
