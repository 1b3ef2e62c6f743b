package io.freshet.kit.ops;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The background readiness probes ({@code freshet.health.*}).
 *
 * @param probeInterval how often the broker (and the database, in a service that has one) is
 *     checked in the background; readiness answers from the latest result
 * @param probeTimeout how long one check may take before it counts as failed; a result older than
 *     three intervals plus this counts as DOWN (a hung check cannot keep readiness UP)
 */
@Validated
@ConfigurationProperties("freshet.health")
public record HealthSettings(
    @NotNull @DefaultValue("2s") Duration probeInterval,
    @NotNull @DefaultValue("1s") Duration probeTimeout) {}
