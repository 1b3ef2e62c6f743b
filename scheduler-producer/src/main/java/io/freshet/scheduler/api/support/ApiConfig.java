package io.freshet.scheduler.api.support;

import io.freshet.kit.web.ProblemWriter;
import io.freshet.schemas.crypto.CredentialCipher;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The API's wiring: the credentials cipher, Spring's JSON mapper made strict ({@link Json#strict}),
 * and the bearer-token filter, which runs before Spring MVC (the service kit adds the
 * query-parameter filter and the error handling: {@code io.freshet.kit.web}).
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

  @Bean
  FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(
      ApiProperties props, ProblemWriter problems) {
    var registration =
        new FilterRegistrationBean<>(
            new BearerTokenFilter(props.token(), props.readToken(), problems));
    registration.addUrlPatterns("/*");
    // before anything reads the body or dispatches
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return registration;
  }
}
