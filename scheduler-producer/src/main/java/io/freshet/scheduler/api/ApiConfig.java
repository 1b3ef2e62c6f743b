package io.freshet.scheduler.api;

import io.freshet.schemas.crypto.CredentialCipher;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springdoc.core.customizers.OpenApiCustomizer;
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
    var registration = new FilterRegistrationBean<>(new BearerTokenFilter(props.token()));
    registration.addUrlPatterns("/*");
    // before anything reads the body or dispatches
    registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
    return registration;
  }

  @Bean
  FilterRegistrationBean<NulCharacterFilter> nulCharacterFilter() {
    var registration = new FilterRegistrationBean<>(new NulCharacterFilter());
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
                        + " the fetch-worker when due; its cadence lives in config.cadence. Reads"
                        + " are open; every write needs Authorization: Bearer <token>. Errors"
                        + " are {status, error, messages} with one message per bad field."))
        .components(
            new Components()
                .addSecuritySchemes(
                    BEARER,
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description("freshet.api.token")));
  }

  /** Marks every operation but GET as needing the bearer token. */
  @Bean
  OpenApiCustomizer bearerOnWrites() {
    return openApi -> {
      if (openApi.getPaths() == null) {
        return;
      }
      openApi
          .getPaths()
          .values()
          .forEach(
              item ->
                  item.readOperationsMap()
                      .forEach(
                          (method, operation) -> {
                            if (method != PathItem.HttpMethod.GET) {
                              operation.addSecurityItem(new SecurityRequirement().addList(BEARER));
                            }
                          }));
    };
  }
}
