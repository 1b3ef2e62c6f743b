package io.freshet.scheduler.api.support;

import io.freshet.schemas.crypto.CredentialCipher;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The API's wiring: the credentials cipher and Spring's JSON mapper made strict ({@link
 * Json#strict}). The service kit adds the API-key chain ({@code io.freshet.kit.security}), the
 * query-parameter filter and the error handling ({@code io.freshet.kit.web}).
 */
@Configuration(proxyBeanMethods = false)
class ApiConfig {

  /** Fails start-up with the key's problem (missing, not base64, not 32 bytes). */
  @Bean
  CredentialCipher credentialCipher(CredentialsProperties props) {
    try {
      return CredentialCipher.fromBase64Key(props.key());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("freshet.credentials.key: " + e.getMessage(), e);
    }
  }

  /** The service's one JSON mapper, Spring's, reads request bodies strictly. */
  @Bean
  JsonMapperBuilderCustomizer strictRequestBodies() {
    return Json::strict;
  }
}
