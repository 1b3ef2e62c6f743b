package io.freshet.scheduler.api.support;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The key that seals sources' credentials ({@code freshet.credentials.key}, environment {@code
 * FRESHET_CREDENTIALS_KEY}). The fetch-worker holds the same key to open them.
 *
 * @param key 32 random bytes, base64 ({@code openssl rand -base64 32}); required
 */
@Validated
@ConfigurationProperties("freshet.credentials")
public record CredentialsProperties(
    @NotBlank(message = "must be set (FRESHET_CREDENTIALS_KEY): 32 bytes, base64") String key) {}
