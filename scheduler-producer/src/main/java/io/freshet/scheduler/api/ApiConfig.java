package io.freshet.scheduler.api;

import io.freshet.schemas.crypto.CredentialCipher;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** The API's wiring: the credentials cipher, the bearer-token filter and the OpenAPI document. */
@Configuration(proxyBeanMethods = false)
class ApiConfig {

  static final String BEARER = "bearer";

  /** Fails start-up with the key's problem (missing, not base64, not 32 bytes). */
  @Bean
  CredentialCipher credentialCipher(CredentialsProperties props) {
    try {
      return CredentialCipher.fromBase64Key(props.key());
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("freshet.credentials.key: " + e.getMessage(), e);
    }
  }

  @Bean
  FilterRegistrationBean<BearerTokenFilter> bearerTokenFilter(ApiProperties props) {
    var registration =
        new FilterRegistrationBean<>(
            new BearerTokenFilter(
                props.token(), props.readToken(), new ApiErrorWriter(Json.MAPPER)));
    registration.addUrlPatterns("/*");
    // before anything reads the body or dispatches
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return registration;
  }

  @Bean
  FilterRegistrationBean<NulCharacterFilter> nulCharacterFilter() {
    var registration =
        new FilterRegistrationBean<>(new NulCharacterFilter(new ApiErrorWriter(Json.MAPPER)));
    registration.addUrlPatterns("/*");
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
    return registration;
  }

  @Bean
  OpenAPI freshetOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("Freshet scheduler API")
                .version("v1")
                .description(
                    "Sources and tenants of the Freshet scheduler. Every source is fetched by"
                        + " the fetch-worker when due; its cadence lives in config.cadence. Every"
                        + " call needs Authorization: Bearer <token>: reads (GET, HEAD) accept"
                        + " the read-only token (freshet.api.read-token) or the write token"
                        + " (freshet.api.token), writes only the write token. Put secrets (API"
                        + " keys, passwords, header values) in credentials, which are sealed and"
                        + " never shown: query parameters of url and config values with"
                        + " secret-looking names (token, secret, password, key, auth, sig,"
                        + " session, cookie, …) are shown as *** and a write that sends *** back"
                        + " there is refused. Errors are {status, error, messages} with one"
                        + " message per bad field."))
        .components(
            new Components()
                .addSecuritySchemes(
                    BEARER,
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description(
                            "freshet.api.token (reads and writes) or freshet.api.read-token"
                                + " (reads only)")))
        .addSecurityItem(new SecurityRequirement().addList(BEARER));
  }
}
