package io.freshet.scheduler.api.keys;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code freshet.keys.*}: how the scheduler publishes its API keys and records their use.
 *
 * @param publishInterval how often keys changed but not yet on the key topic are sent (a change
 *     made through the API is sent at once; this catches what a broker outage held back)
 * @param publishTimeout how long a publish waits for the broker's acknowledgements
 * @param lastUsedFlush how often the keys' {@code last_used_at} is written, in one batch
 */
@Validated
@ConfigurationProperties("freshet.keys")
public record KeysProperties(
    @NotNull @DefaultValue("1s") Duration publishInterval,
    @NotNull @DefaultValue("10s") Duration publishTimeout,
    @NotNull @DefaultValue("1m") Duration lastUsedFlush) {}
