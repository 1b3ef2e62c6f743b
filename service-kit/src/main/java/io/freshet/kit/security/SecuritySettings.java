package io.freshet.kit.security;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * {@code freshet.security.*}: the API keys, the same in every service (environment: {@code
 * FRESHET_SECURITY_*}).
 *
 * @param adminKey the bootstrap admin key, accepted by every service whatever the key topic says
 *     (environment {@code FRESHET_SECURITY_ADMIN_KEY}; a key in the {@code fk_} form, as {@code
 *     ./freshet up} makes one, or any long random text); empty: none. The deprecated {@code
 *     freshet.api.token} (admin) and {@code freshet.api.read-token} (read) are accepted too.
 * @param keyTopic whether this service reads the key topic into its directory (off only for tests
 *     and tools without a broker: then only the bootstrap keys work)
 * @param keyTopicPoll how long one poll of the key topic waits; a revocation reaches the directory
 *     within about this much after the scheduler published it
 * @param publicPrometheus DEPRECATED, nothing needs it: whether {@code /actuator/prometheus}
 *     answers without a key on the public port. Every service now serves metrics on its management
 *     port ({@code management.server.port}, where all of actuator is open and which no deployment
 *     publishes), and then the public port has no metrics to open; off by default, a warning when
 *     on
 */
@Validated
@ConfigurationProperties("freshet.security")
public record SecuritySettings(
    @DefaultValue("") String adminKey,
    @DefaultValue("true") boolean keyTopic,
    @NotNull @DefaultValue("500ms") Duration keyTopicPoll,
    @DefaultValue("false") boolean publicPrometheus) {

  @Override
  public String toString() {
    return "SecuritySettings[adminKey="
        + (adminKey.isBlank() ? "" : "***")
        + ", keyTopic="
        + keyTopic
        + ", keyTopicPoll="
        + keyTopicPoll
        + "]";
  }
}
